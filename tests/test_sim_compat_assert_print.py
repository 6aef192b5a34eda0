"""AscendC::AssertPrint + AscendC::Trap() where public kernels write them (backends/sim/kernel_api/COMPAT.md,
"Round 21 (s21h)": vllm-ascend's categorical_sample checks its inputs with a macro that prints the message with
AssertPrint and then traps; asc-devkit's own assert macros expand to the same pair).  AssertPrint formats like
printf into the block's output, which reaches the host also when the block then ends with the `trap` error; it
does not stop the kernel itself.  The kernel is our own (kernels/compat/assert_print_idioms.cpp)."""

from __future__ import annotations


import numpy as np
import pytest

import pyasc
from ascendc_kernels import launch_synced, load, run_child

SRC = "compat/assert_print_idioms.cpp"
VOCAB = 64

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def sim(a: np.ndarray) -> pyasc.Tensor:
    return pyasc.tensor(np.ascontiguousarray(a), device="sim")


def test_checked_rows_sample_their_first_argmax():
    rng = np.random.default_rng(21)
    rows, requests = 7, 3
    logits = rng.standard_normal((rows, VOCAB)).astype(np.float32)
    logits[4, 10] = logits[4, 50] = 9.0  # a tie: the first maximum wins
    mapping = np.array([0, 2, -1, 1, 2, -1, 0], np.int32)
    offsets = np.array([1000, 2000, 3000], np.int64)
    out = pyasc.zeros((rows,), dtype="int64", device="sim")
    launch_synced(load(SRC).function("assert_print_greedy"), 3,
                  (sim(logits), sim(mapping), sim(offsets), out, np.uint32(rows), np.uint32(requests)))
    want = np.where(mapping == -1, 0, offsets[np.clip(mapping, 0, None)] + np.argmax(logits, axis=1))
    np.testing.assert_array_equal(out.numpy(), want)
    assert out.numpy()[4] == 3000 + 10


def test_a_failed_check_prints_its_message_then_traps(tmp_path):
    out = run_child(tmp_path, f"""
        import numpy as np, pyasc, pyasc_acl
        from ascendc_kernels import load
        f = load({SRC!r}).function("assert_print_greedy")
        def go(rows, mapping):
            logits = pyasc.tensor(np.zeros((max(rows, 1), {VOCAB}), np.float32), device="sim")
            m = pyasc.tensor(np.array(mapping, np.int32), device="sim")
            offsets = pyasc.tensor(np.zeros(3, np.int64), device="sim")
            y = pyasc.zeros((max(rows, 1),), dtype="int64", device="sim")
            stream = pyasc.current_stream("sim")
            pyasc_acl.launch(f, 1, (logits, m, offsets, y, np.uint32(rows), np.uint32(3)), stream=stream)
            try:
                stream.synchronize()
                print("NO-ERROR", flush=True)
            except pyasc_acl.AclKernelError as e:
                print("KERNEL-ERROR", e.message.splitlines()[0], flush=True)
        go(3, [0, 1, 5])
        go(0, [0])
    """)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "NO-ERROR" not in text, text
    assert text.count("KERNEL-ERROR") == 2, text
    assert "sanitizer check 'trap' failed" in text, text
    # the formatted message of the first launch, printed before its trap, in program order
    first = text.index("[ASSERT] assert_print_idioms.cpp:")
    assert "row 2 maps to request 5 of 3\n" in text[first:], text
    assert first < text.index("KERNEL-ERROR"), text
    # a message without arguments
    assert "assert_print_greedy needs at least one row\n" in text, text
