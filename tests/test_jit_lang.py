"""pyasc.lang: one Python name per Ascend C name. The reference's list (tests/data/ascendc_kernel_api.txt)
is covered, every table entry names something the simulator's kernel API implements, and the
documented table (docs/pyasc-lang-api.md) is the table."""

from __future__ import annotations

import glob
import os
import re

import pytest

import pyasc
import pyasc.lang as asc
from pyasc.lang import table

HERE = os.path.dirname(__file__)
ROOT = os.path.join(HERE, os.pardir)


def reference_names() -> list[str]:
    with open(os.path.join(HERE, "data", "ascendc_kernel_api.txt")) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]


def kapi_text() -> str:
    files = glob.glob(os.path.join(ROOT, "backends/sim/kernel_api/include/**/*.h"), recursive=True)
    return "\n".join(open(p).read() for p in files)


@pytest.mark.parametrize("cpp", reference_names())
def test_every_reference_api_has_its_python_name(cpp):
    if "::" in cpp:
        owner, meth = cpp.split("::")
        hits = [a for a in table.TABLE if a.kind == "method" and a.owner == owner and a.cpp == meth]
        assert hits, f"{cpp} has no Python method in pyasc.lang.table"
        return
    hits = [a for a in table.TABLE if a.owner is None and a.cpp == cpp]
    assert hits, f"{cpp} has no Python name in pyasc.lang.table"
    assert hasattr(asc, hits[0].py), f"asc.{hits[0].py} is not exported"


def test_every_table_name_is_implemented_by_the_kernel_api():
    text = kapi_text()
    missing = [a.cpp for a in table.TABLE if not re.search(rf"\b{re.escape(a.cpp)}\b", text)]
    assert missing == []


def test_python_names_are_snake_case_of_the_cpp_names():
    for a in table.TABLE:
        if a.kind in ("function", "method"):
            snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", a.cpp).lower().replace("i_d", "id")
            assert a.py.rstrip("_").replace("_", "") == snake.replace("_", ""), (a.py, a.cpp)


def test_the_documented_table_is_the_table():
    with open(os.path.join(ROOT, "docs", "pyasc-lang-api.md")) as f:
        assert f.read() == table.markdown(), "regenerate: python -m pyasc.lang.table > docs/pyasc-lang-api.md"


def test_element_types():
    assert asc.float16.sizeof() == 2 and asc.float32.sizeof() == 4 and asc.bfloat16.sizeof() == 2
    assert asc.int32.cpp == "int32_t" and asc.float16.cpp == "half" and asc.bfloat16.cpp == "bfloat16_t"
    assert asc.TPosition.VECIN.cpp == "AscendC::TPosition::VECIN" and asc.PIPE_V.cpp == "PIPE_V"
    with pytest.raises(AttributeError, match="has no member 'VECXX'"):
        asc.TPosition.VECXX


def test_api_names_run_only_in_kernels():
    with pytest.raises(asc.CompileError, match=r"asc.add \(AscendC::Add\) runs on the NPU: call it inside a "
                                               r"@pyasc.jit kernel"):
        asc.add(1, 2, 3, 4)
    assert issubclass(asc.CompileError, pyasc.PyascError)


def test_documented_only_mode_refuses_an_undocumented_name():
    src = '#line 7 "k.py"\n    AscendC::Add(z, x, y, n);\n#line 8 "k.py"\n    AscendC::SimOnlyThing(z);\n'
    assert asc.undocumented_tokens(src) == ["SimOnlyThing"]
    from pyasc.lang.documented import check_documented
    with pytest.raises(asc.UndocumentedNameError, match=r"k.py:8: k uses AscendC::SimOnlyThing"):
        check_documented(src, "k")
