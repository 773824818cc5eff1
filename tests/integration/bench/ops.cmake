# collwrap-bench ops: MPITEST's table on 2 and 4 ranks, its files, and wrong command lines.
foreach(ranks 2 4)
  add_test(NAME bench.ops.${ranks}ranks
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/ops_check.py
                   --mpirun ${MPIEXEC_PROGRAM} --bench $<TARGET_FILE:collwrap-bench>
                   --np ${ranks})
  set_tests_properties(bench.ops.${ranks}ranks PROPERTIES TIMEOUT 120
                       RESOURCE_LOCK collwrap_mpirun)
endforeach()
