# The man page of collwrap-bench (share/man/collwrap-bench.1): groff renders it without a
# warning, and every long option of `collwrap-bench SUBCOMMAND --help` has its place in the
# page's subsection for that subcommand (see man_page_check.py). --help needs no mpirun.
find_program(COLLWRAP_SYSTEM_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH REQUIRED)
find_program(COLLWRAP_GROFF groff)
set(collwrap_man_groff)
if(COLLWRAP_GROFF)
  set(collwrap_man_groff --groff ${COLLWRAP_GROFF})
else()
  message(STATUS "groff not found: the man page tests skip the rendering (Debian: groff-base)")
endif()
add_test(NAME bench.man_page
         COMMAND ${COLLWRAP_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/man_page_check.py
                 --page ${PROJECT_SOURCE_DIR}/share/man/collwrap-bench.1
                 --program $<TARGET_FILE:collwrap-bench>
                 --subcommands coll,timer,ops,matrix,noise ${collwrap_man_groff})
set_tests_properties(bench.man_page PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
