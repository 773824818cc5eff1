# collwrap-bench coll: each method's table, JSON and CSV on 2 and 4 ranks; the window method
# against the naive loop on a collective of known duration (--inject-us); wrong command lines.
set(coll_check ${CMAKE_CURRENT_SOURCE_DIR}/coll_check.py)
foreach(run window:2 window:4 barrier:3 naive:4)
  string(REPLACE ":" ";" run ${run})
  list(GET run 0 method)
  list(GET run 1 ranks)
  add_test(NAME bench.coll.${method}_${ranks}ranks
           COMMAND ${Python3_EXECUTABLE} ${coll_check} --mpirun ${MPIEXEC_PROGRAM}
                   --bench $<TARGET_FILE:collwrap-bench> --mode table --np ${ranks}
                   --method ${method})
  set_tests_properties(bench.coll.${method}_${ranks}ranks PROPERTIES TIMEOUT 120
                       RESOURCE_LOCK collwrap_mpirun)
endforeach()
foreach(ranks 2 4)
  add_test(NAME bench.coll.injected_delay_${ranks}ranks
           COMMAND ${Python3_EXECUTABLE} ${coll_check} --mpirun ${MPIEXEC_PROGRAM}
                   --bench $<TARGET_FILE:collwrap-bench> --mode injected --np ${ranks})
  set_tests_properties(bench.coll.injected_delay_${ranks}ranks PROPERTIES TIMEOUT 120
                       RESOURCE_LOCK collwrap_mpirun)
endforeach()
add_test(NAME bench.coll.usage_errors
         COMMAND ${Python3_EXECUTABLE} ${coll_check} --mpirun ${MPIEXEC_PROGRAM}
                 --bench $<TARGET_FILE:collwrap-bench> --mode usage)
set_tests_properties(bench.coll.usage_errors PROPERTIES TIMEOUT 120
                     RESOURCE_LOCK collwrap_mpirun)
