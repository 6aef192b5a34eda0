# PyascCpuDebug.cmake -- build a CANN CPU-debug program (host main.cpp + Ascend C kernel sources)
# into a native executable running on pyasc's simulator kernel API (no CANN).
#
#   include(${PYASC_CPU_DEBUG_CMAKE})   # path from: python -c "import pyasc_sim.cpudebug as c; print(c.cmake_module())"
#   pyasc_cpu_debug_executable(saxpy_cpu main.cpp saxpy_kernel.cpp)          # -O2
#   pyasc_cpu_debug_executable(saxpy_dbg main.cpp saxpy_kernel.cpp DEBUG)    # -O0 -g, for gdb
#
# The sources get the kernel API include directory, C++20, ASCENDC_CPU_DEBUG and the 910B
# architecture macros (__CCE_AICORE__=220, __NPU_ARCH__=2201, __DAV_C220_VEC__).
if(NOT DEFINED PYASC_SIM_INCLUDE_DIR)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  execute_process(COMMAND ${Python3_EXECUTABLE} -c "import pyasc_sim; print(pyasc_sim.get_include())"
                  OUTPUT_VARIABLE PYASC_SIM_INCLUDE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _pyasc_rc)
  if(NOT _pyasc_rc EQUAL 0)
    message(FATAL_ERROR "PyascCpuDebug: cannot import pyasc_sim with ${Python3_EXECUTABLE}; install pyasc or set PYASC_SIM_INCLUDE_DIR")
  endif()
endif()
find_package(Threads REQUIRED)

function(pyasc_cpu_debug_executable target)
  cmake_parse_arguments(ARG "DEBUG" "" "" ${ARGN})
  add_executable(${target} ${ARG_UNPARSED_ARGUMENTS})
  target_compile_features(${target} PRIVATE cxx_std_20)
  target_include_directories(${target} PRIVATE ${PYASC_SIM_INCLUDE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_definitions(${target} PRIVATE ASCENDC_CPU_DEBUG=1 __CCE_KT_TEST__=1 __CCE_AICORE__=220
                             __NPU_ARCH__=2201 __DAV_C220_VEC__=1)
  if(ARG_DEBUG)
    target_compile_options(${target} PRIVATE -O0 -g)
  endif()
  target_link_libraries(${target} PRIVATE Threads::Threads)
endfunction()
