# Builds the analyzer again with AddressSanitizer and UndefinedBehaviorSanitizer, in a build
# tree of its own next to the main one, for the damaged-archive tests: damage must end in a
# warning or an error message, never in memory errors or undefined behaviour (a signed
# overflow of a duration sum once turned a damaged timestamp into a 3.5-billion-second wait).
# Only the analyzer target is built, at -O1, without tests.
#
#   cmake -DSOURCE_DIR=... -DBUILD_DIR=... [-DLAUNCHER=ccache] [-DJOBS=2] -P this file
set(flags "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -O1 -g")
set(launcher)
if(LAUNCHER)
  set(launcher -DCMAKE_C_COMPILER_LAUNCHER=${LAUNCHER} -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
# One compiler at a time: ctest runs the timing-sensitive mpirun tests beside this build.
if(NOT JOBS)
  set(JOBS 1)
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BUILD_DIR} -DCMAKE_BUILD_TYPE=Debug
          "-DCMAKE_C_FLAGS=${flags}" "-DCMAKE_CXX_FLAGS=${flags}"
          "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined"
          -DCOLLWRAP_BUILD_TESTS=OFF -DCOLLWRAP_BUILD_PERF=OFF ${launcher}
  OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target analyzer --parallel ${JOBS}
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
