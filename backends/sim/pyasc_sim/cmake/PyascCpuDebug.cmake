# PyascCpuDebug.cmake -- build a CANN CPU-debug program (host main.cpp + Ascend C kernel sources)
# into a native executable running on pyasc's simulator kernel API (no CANN).
#
#   include(${PYASC_CPU_DEBUG_CMAKE})   # path from: python -c "import pyasc_sim.cpudebug as c; print(c.cmake_module())"
#   pyasc_cpu_debug_executable(saxpy_cpu main.cpp saxpy_kernel.cpp)          # -O2
#   pyasc_cpu_debug_executable(saxpy_dbg main.cpp saxpy_kernel.cpp DEBUG)    # -O0 -g, for gdb
#   pyasc_cpu_debug_executable(knn main.cpp knn.cpp INCLUDE_DIRECTORIES inc)  # -I inc, scanned as below
#
# The sources get the kernel API include directory, C++20, ASCENDC_CPU_DEBUG and the 910B
# architecture macros (__CCE_AICORE__=220, __NPU_ARCH__=2201, __DAV_C220_VEC__, __DAV_VEC__). A source
# that tests __DAV_C220_CUBE__ / __DAV_C220_VEC__ / __DAV_CUBE__ / __DAV_VEC__, or writes the NPU compiler's
# `[aicore]` attribute (itself or a header it reaches: from its directory, or from the INCLUDE_DIRECTORIES given
# here, which the target also gets) is built by `python -m pyasc_sim.cpudebug` instead (with the target's include
# directories and definitions): a mixed kernel (KERNEL_TYPE_MIX_AIC_1_1 / 1_2) once per core kind, as the NPU
# toolchain does, so the AIC run the cube pass and the AIV the vector pass; `[aicore]` rewritten in private copies
# of the source and its headers (pyasc_sim.bisheng_syntax; needs the Python that has pyasc).
if(NOT DEFINED Python3_EXECUTABLE)
  find_package(Python3 COMPONENTS Interpreter)
endif()
if(NOT DEFINED PYASC_SIM_INCLUDE_DIR)
  if(NOT Python3_EXECUTABLE)
    message(FATAL_ERROR "PyascCpuDebug: no Python 3 found; install pyasc or set PYASC_SIM_INCLUDE_DIR")
  endif()
  execute_process(COMMAND ${Python3_EXECUTABLE} -c "import pyasc_sim; print(pyasc_sim.get_include())"
                  OUTPUT_VARIABLE PYASC_SIM_INCLUDE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _pyasc_rc)
  if(NOT _pyasc_rc EQUAL 0)
    message(FATAL_ERROR "PyascCpuDebug: cannot import pyasc_sim with ${Python3_EXECUTABLE}; install pyasc or set PYASC_SIM_INCLUDE_DIR")
  endif()
endif()
find_package(Threads REQUIRED)

# Whether `src` (or a header it reaches: quoted includes from the includer's directory, quoted or angle-bracket
# includes from `incdirs`, recursively; the kernel API's own headers are not read) names a core macro or writes
# the NPU compiler's `[aicore]` attribute; `deps`: those headers (the object is rebuilt when one changes).
function(_pyasc_needs_python_build src incdirs out deps)
  set(${out} FALSE PARENT_SCOPE)
  set(_found)
  set(_text)
  set(_todo "${src}")
  set(_done "${src}")
  while(_todo)
    list(POP_FRONT _todo _file)
    file(READ "${_file}" _more)
    string(APPEND _text "${_more}")
    get_filename_component(_dir "${_file}" DIRECTORY)
    string(REGEX MATCHALL "#[ \t]*include[ \t]*[\"<][^\">]+[\">]" _incs "${_more}")
    foreach(_inc ${_incs})
      string(REGEX REPLACE "#[ \t]*include[ \t]*[\"<]([^\">]+)[\">]" "\\1" _name "${_inc}")
      set(_chain ${incdirs})
      if(_inc MATCHES "\"$")
        set(_chain "${_dir}" ${incdirs})
      endif()
      foreach(_d ${_chain})
        get_filename_component(_path "${_d}/${_name}" ABSOLUTE)
        if(EXISTS "${_path}" AND NOT IS_DIRECTORY "${_path}")
          string(FIND "${_path}" "${PYASC_SIM_INCLUDE_DIR}/" _api)
          list(FIND _done "${_path}" _seen)
          if(NOT _api EQUAL 0 AND _seen EQUAL -1)
            list(APPEND _done "${_path}")
            list(APPEND _todo "${_path}")
            list(APPEND _found "${_path}")
          endif()
          break()
        endif()
      endforeach()
    endforeach()
  endwhile()
  set(${deps} ${_found} PARENT_SCOPE)
  if(_text MATCHES "__DAV_(C220_)?(CUBE|VEC)__" OR _text MATCHES "\\[aicore\\]")
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

function(pyasc_cpu_debug_executable target)
  cmake_parse_arguments(ARG "DEBUG" "" "INCLUDE_DIRECTORIES" ${ARGN})
  set(_incdirs)
  foreach(_d ${ARG_INCLUDE_DIRECTORIES})
    get_filename_component(_absd "${_d}" ABSOLUTE)
    list(APPEND _incdirs "${_absd}")
  endforeach()
  set(_sources)
  set(_objects)
  foreach(_src ${ARG_UNPARSED_ARGUMENTS})
    get_filename_component(_abs "${_src}" ABSOLUTE)
    set(_split FALSE)
    set(_deps)
    if(Python3_EXECUTABLE AND EXISTS "${_abs}")
      _pyasc_needs_python_build("${_abs}" "${_incdirs}" _split _deps)
    endif()
    if(_split)
      get_filename_component(_name "${_abs}" NAME)
      set(_obj "${CMAKE_CURRENT_BINARY_DIR}/pyasc_cpu_debug/${target}/${_name}.o")
      set(_dbg)
      if(ARG_DEBUG)
        set(_dbg --debug)
      endif()
      add_custom_command(OUTPUT "${_obj}"
        COMMAND ${Python3_EXECUTABLE} -m pyasc_sim.cpudebug "${_abs}" -o "${_obj}" ${_dbg}
                "-I$<JOIN:$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>,;-I>"
                "-D$<JOIN:$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>,;-D>"
        DEPENDS "${_abs}" ${_deps} COMMENT "pyasc: building ${_name} once per core kind" COMMAND_EXPAND_LISTS VERBATIM)
      list(APPEND _objects "${_obj}")
    else()
      list(APPEND _sources "${_src}")
    endif()
  endforeach()
  add_executable(${target} ${_sources} ${_objects})
  target_compile_features(${target} PRIVATE cxx_std_20)
  target_include_directories(${target} PRIVATE ${PYASC_SIM_INCLUDE_DIR} ${CMAKE_CURRENT_SOURCE_DIR} ${_incdirs})
  target_compile_definitions(${target} PRIVATE ASCENDC_CPU_DEBUG=1 __CCE_KT_TEST__=1 __CCE_AICORE__=220
                             __NPU_ARCH__=2201 __DAV_C220_VEC__=1 __DAV_VEC__=1)
  if(ARG_DEBUG)
    target_compile_options(${target} PRIVATE -O0 -g)
  endif()
  target_link_libraries(${target} PRIVATE Threads::Threads)
endfunction()
