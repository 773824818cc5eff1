# collwrap-bench matrix: each of network_test's modes runs for about a second on 2 to 4 ranks
# and matrix_check.py checks the index, the CSV matrices and the SVG heatmaps; a last test
# checks the exit status and messages of wrong command lines.
find_program(COLLWRAP_SYSTEM_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH REQUIRED)
set(matrix_check ${CMAKE_CURRENT_SOURCE_DIR}/matrix_check.py)
foreach(run one_to_one:2 all_to_all:3 send_recv_and_recv_send:4 async_one_to_one:2
            noise_blocking:4:2 noise:4:2)
  string(REPLACE ":" ";" run ${run})
  list(GET run 0 mode)
  list(GET run 1 ranks)
  set(noise)
  if(mode MATCHES "^noise")
    list(GET run 2 noise_ranks)
    set(noise --noise-ranks ${noise_ranks})
  endif()
  add_test(NAME bench.matrix.${mode}
           COMMAND ${COLLWRAP_SYSTEM_PYTHON} ${matrix_check} --mpirun ${MPIEXEC_PROGRAM}
                   --bench $<TARGET_FILE:collwrap-bench> --np ${ranks} --mode ${mode} ${noise})
  set_tests_properties(bench.matrix.${mode} PROPERTIES TIMEOUT 120
                       RESOURCE_LOCK collwrap_mpirun)
endforeach()
add_test(NAME bench.matrix.usage_errors
         COMMAND ${COLLWRAP_SYSTEM_PYTHON} ${matrix_check} --mpirun ${MPIEXEC_PROGRAM}
                 --bench $<TARGET_FILE:collwrap-bench> --usage-errors)
set_tests_properties(bench.matrix.usage_errors PROPERTIES TIMEOUT 120
                     RESOURCE_LOCK collwrap_mpirun)
