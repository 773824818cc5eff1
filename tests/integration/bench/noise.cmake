# collwrap-bench noise: collect for 2 s on 2 ranks, check the noise file and the analysis, load
# the file back; then analyze a traced example with `analyzer --noise`.
add_test(NAME bench.noise.collect_2ranks
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/noise_check.py
                 --mpirun ${MPIEXEC_PROGRAM} --bench $<TARGET_FILE:collwrap-bench> --np 2)
set_tests_properties(bench.noise.collect_2ranks PROPERTIES TIMEOUT 120
                     RESOURCE_LOCK collwrap_mpirun)

include(${PROJECT_SOURCE_DIR}/share/schema/jsonschema_python.cmake)
add_test(NAME bench.noise.analyzer_tie_in
         COMMAND ${COLLWRAP_JSONSCHEMA_PYTHON}
                 ${CMAKE_CURRENT_SOURCE_DIR}/noise_analyzer_check.py
                 $<TARGET_FILE:pattern_example_wait_at_barrier>
                 --mpirun ${MPIEXEC_PROGRAM} --preload $<TARGET_FILE:collwrap>
                 --analyzer $<TARGET_FILE:analyzer> --bench $<TARGET_FILE:collwrap-bench>
                 --schema-dir ${PROJECT_SOURCE_DIR}/share/schema
                 --pattern-tests ${PROJECT_SOURCE_DIR}/tests/integration/patterns)
set_tests_properties(bench.noise.analyzer_tie_in PROPERTIES TIMEOUT 180
                     RESOURCE_LOCK collwrap_mpirun)
