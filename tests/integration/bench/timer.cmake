# collwrap-bench timer: the same self-test as collwrap-timercheck, on 2 and 4 ranks.
foreach(run 2:linear 4:ring)
  string(REPLACE ":" ";" run ${run})
  list(GET run 0 ranks)
  list(GET run 1 sync)
  add_test(NAME bench.timer.${ranks}ranks_${sync}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/timer_check.py
                   --mpirun ${MPIEXEC_PROGRAM} --bench $<TARGET_FILE:collwrap-bench>
                   --np ${ranks} --sync ${sync})
  set_tests_properties(bench.timer.${ranks}ranks_${sync} PROPERTIES TIMEOUT 120
                       RESOURCE_LOCK collwrap_mpirun SKIP_RETURN_CODE 77)
endforeach()
