"""DataCopyPad GM -> UB and the initcheck (local-uninit-read): the copy writes each burst into its 32-byte
aligned slot and, with DataCopyPadExtParams::isPad, the leftPadding / rightPadding elements (paddingValue);
it does not write the dstStride gap after a slot (DataCopyPad(ISASI) page: dstStride is the interval from the
tail of one block to the head of the next, in 32-byte blocks for a local destination), and without isPad its
padding holds nothing the kernel put there. Until round 23 the simulator marked the whole span written, gaps
and unfilled padding included, so storing them to GM was not reported (s22a's note); now a store of a
never-written gap or padding sector is reported at the store, and every store of what the copy (or an earlier
fill) wrote stays clean. Kernel: our own compat/datacopypad_gap_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from ascendc_kernels import launch_failing, launch_synced, load, marked_line

SRC = "compat/datacopypad_gap_idioms.cpp"


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


def slot_floats(cols: int, left: int, right: int) -> int:
    return ((left + cols + right) * 4 + 31) // 32 * 8


def run(binary, rows, cols, *, left=0, right=0, gap=0, is_pad=0, store=0, fill_gap=0, fail=False):
    x = np.random.default_rng(rows * 100 + cols).standard_normal(rows * cols).astype(np.float32)
    pitch = slot_floats(cols, left, right) + 8 * gap
    y = pyasc.full((rows * pitch,), -5.0, dtype="float32", device="sim")
    args = (pyasc.tensor(x, device="sim"), y, rows, cols, left, right, gap, is_pad, store, fill_gap)
    if fail:
        return launch_failing(binary.function("pad_gap_rows"), 1, args)
    launch_synced(binary.function("pad_gap_rows"), 1, args)
    return x.reshape(rows, cols), y.numpy()


def uninit_at(msg: str, marker: str) -> None:
    assert f"sanitizer check 'local-uninit-read' failed at {marked_line(SRC, marker)}" in msg, msg


@pytest.mark.parametrize("rows,cols,gap", [(4, 10, 1), (3, 8, 2), (5, 17, 0)])
def test_storing_the_rows_of_a_gapped_copy_is_clean(binary, rows, cols, gap):
    x, y = run(binary, rows, cols, gap=gap, store=0)
    np.testing.assert_array_equal(y[:rows * cols].reshape(rows, cols), x)


@pytest.mark.parametrize("rows,cols,gap", [(4, 10, 1), (2, 8, 3)])
def test_storing_a_never_written_stride_gap_is_reported(binary, rows, cols, gap):
    uninit_at(run(binary, rows, cols, gap=gap, store=1, fail=True), "whole-tile")


def test_a_gap_filled_before_the_copy_is_written(binary):
    rows, cols, gap = 4, 10, 1
    x, y = run(binary, rows, cols, gap=gap, store=1, fill_gap=1)
    slot = slot_floats(cols, 0, 0)
    tile = y.reshape(rows, slot + 8 * gap)
    np.testing.assert_array_equal(tile[:, :cols], x)
    # the Duplicate's values in each slot's tail and in the gaps between the slots: the copy wrote no byte there
    np.testing.assert_array_equal(tile[:-1, cols:], -1.0)
    np.testing.assert_array_equal(tile[-1, cols:slot], -1.0)
    np.testing.assert_array_equal(tile[-1, slot:], -5.0)  # past the last slot: not stored


def test_a_slot_tail_in_a_data_sector_stays_written(binary):
    # no gap, 10 floats in a 16-float slot: the tail shares the data's sector (counted written, as before)
    x, y = run(binary, 4, 10, store=1)
    np.testing.assert_array_equal(y.reshape(4, 16)[:, :10], x)


def test_padding_filled_with_is_pad_is_written(binary):
    x, y = run(binary, 3, 8, right=8, is_pad=1, store=2)
    tile = y.reshape(3, 16)
    np.testing.assert_array_equal(tile[:, :8], x)
    np.testing.assert_array_equal(tile[:, 8:], 7.0)  # paddingValue


@pytest.mark.parametrize("left,right", [(0, 8), (8, 0)])
def test_padding_without_is_pad_is_not_written(binary, left, right):
    # a whole 32-byte sector of padding the copy does not fill, stored with its slot
    uninit_at(run(binary, 3, 8, left=left, right=right, is_pad=0, store=2, fail=True), "whole-slots")


def test_padding_without_is_pad_inside_a_data_sector_is_clean(binary):
    # 2 floats of right padding share the last data sector: counted written, as before
    x, y = run(binary, 3, 5, right=2, is_pad=0, store=2)
    np.testing.assert_array_equal(y.reshape(3, 8)[:, :5], x)
