"""Concurrency: 8 Python threads, each with its own stream, doing 2,000 rounds of copy / launch /
synchronize on the simulator with correct results and no deadlock."""

from __future__ import annotations

import threading

import numpy as np

import pyasc
import pyasc_acl

from acl_fixtures import kernel_binary

THREADS = 8
ROUNDS = 2000
N = 64


def test_threads_with_own_streams_copy_launch_synchronize():
    fn = pyasc_acl.Binary(kernel_binary(), device="sim").function("add_scalar_i32")
    errors: list[BaseException] = []
    done = [0] * THREADS

    def worker(tid: int) -> None:
        try:
            s = pyasc.Stream("sim")
            base = np.arange(N, dtype=np.int32) * (tid + 1)
            with pyasc.stream(s):
                x = pyasc.tensor(base, device="sim")
                y = pyasc.empty(N, dtype="int32", device="sim")
                for r in range(ROUNDS):
                    x[0] = r  # host -> device copy
                    pyasc_acl.launch(fn, 2, (x, y, N, tid))
                    out = y.numpy()  # device -> host copy + stream synchronize
                    if out[0] != r + tid or out[-1] != base[-1] + tid:
                        raise AssertionError(f"thread {tid} round {r}: got {out[0]}, {out[-1]}")
                    done[tid] += 1
                s.synchronize()
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(t,), daemon=True) for t in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), f"deadlock: rounds done per thread {done}"
    assert not errors, errors[0]
    assert done == [ROUNDS] * THREADS
