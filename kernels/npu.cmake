# The NPU build of kernels/: each <family>.cpp -> one device binary npu/<family>.o, compiled by
# CANN's bisheng compiler and installed into pyasc_sim/kernels/npu/.
#
# Why a .o per family: aclrtBinaryLoadFromFile loads an operator binary file (*.o, absolute path)
# and aclrtBinaryGetFunction finds a kernel in it by name; the npu backend's glue
# (pyasc_kernels._runtime.binary_path) loads npu/<family>.o and asks for the same extern "C"
# kernel names as on the simulator. Keep the three in step: tests/test_npu_kernel_build.py runs
# this file with a stand-in bisheng and checks the commands, the installed files and the lookup.
# pyasc.Kernel's first-use compile for npu (backends/npu/pyasc_acl/cann_compile.py) runs the same
# bisheng command: tests/test_npu_kernel_compile.py compares it with the COMMAND below.
#
# Toolkit: the first of $ASCEND_HOME_PATH, /usr/local/Ascend/cann,
# /usr/local/Ascend/ascend-toolkit/latest with compiler/ccec_compiler/bin/bisheng (where CANN
# installs it). Without one this step is skipped and says so; the simulator build is unaffected.
# Compiler options (from the public BiSheng documentation): -xcce (device code in a .cpp),
# --std=c++17 (required for Ascend C), --cce-soc-version=<SoC>, --cce-soc-core-type=VecCore for
# vector-only sources, AICore for sources with cube code (PYASC_NPU_CUBE_FAMILIES).

set(_pyasc_cann_roots)
if(DEFINED ENV{ASCEND_HOME_PATH} AND NOT "$ENV{ASCEND_HOME_PATH}" STREQUAL "")
  list(APPEND _pyasc_cann_roots $ENV{ASCEND_HOME_PATH})
endif()
list(APPEND _pyasc_cann_roots /usr/local/Ascend/cann /usr/local/Ascend/ascend-toolkit/latest)

set(PYASC_BISHENG "")
foreach(root ${_pyasc_cann_roots})
  if(NOT PYASC_BISHENG AND EXISTS ${root}/compiler/ccec_compiler/bin/bisheng)
    set(PYASC_BISHENG ${root}/compiler/ccec_compiler/bin/bisheng)
    set(PYASC_CANN_ROOT ${root})
  endif()
endforeach()

if(NOT PYASC_BISHENG)
  string(REPLACE ";" ", " _pyasc_searched "${_pyasc_cann_roots}")
  message(STATUS "pyasc kernels: no CANN toolkit (looked for compiler/ccec_compiler/bin/bisheng under "
                 "${_pyasc_searched}; set ASCEND_HOME_PATH to use one): skipping the NPU build of "
                 "kernels/; the simulator build is unaffected")
  return()
endif()

set(SOC_VERSION "Ascend910B1" CACHE STRING "SoC the NPU kernels are compiled for (--cce-soc-version)")
set(PYASC_NPU_CUBE_FAMILIES matmul CACHE STRING "kernels/ families with cube code (--cce-soc-core-type=AICore)")
message(STATUS "pyasc kernels: CANN toolkit found at ${PYASC_CANN_ROOT}; building kernels/ for the NPU "
               "(${SOC_VERSION}) with ${PYASC_BISHENG}")

# The toolkit's Ascend C headers (kernel_operator.h and what it includes), where present.
set(_pyasc_npu_includes -I${CMAKE_CURRENT_SOURCE_DIR})
foreach(sub compiler/tikcpp/tikcfw compiler/tikcpp/tikcfw/impl compiler/tikcpp/tikcfw/interface include)
  if(IS_DIRECTORY ${PYASC_CANN_ROOT}/${sub})
    list(APPEND _pyasc_npu_includes -I${PYASC_CANN_ROOT}/${sub})
  endif()
endforeach()

set(_pyasc_npu_outputs)
foreach(src ${PYASC_KERNEL_SOURCES})
  get_filename_component(family ${src} NAME_WE)
  if(family IN_LIST PYASC_NPU_CUBE_FAMILIES)
    set(_core AICore)
  else()
    set(_core VecCore)
  endif()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/npu/${family}.o)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/npu
    COMMAND ${PYASC_BISHENG} -xcce --std=c++17 -O2 --cce-soc-version=${SOC_VERSION}
            --cce-soc-core-type=${_core} ${_pyasc_npu_includes} -c ${src} -o ${out}
    DEPENDS ${src} ${PYASC_KERNEL_HEADERS}
    COMMENT "pyasc kernels: kernels/${family}.cpp -> npu/${family}.o (bisheng, ${SOC_VERSION}, ${_core})"
    VERBATIM)
  list(APPEND _pyasc_npu_outputs ${out})
endforeach()
add_custom_target(pyasc_kernels_npu ALL DEPENDS ${_pyasc_npu_outputs})
install(FILES ${_pyasc_npu_outputs} DESTINATION pyasc_sim/kernels/npu)
