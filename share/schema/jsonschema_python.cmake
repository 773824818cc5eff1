# COLLWRAP_JSONSCHEMA_PYTHON: a Python 3 that can `import jsonschema`, for the tests that
# validate reports against report.schema.json. The configured Python3_EXECUTABLE may be a
# private interpreter (pyenv, venv) without it; Debian's python3-jsonschema is for /usr/bin/python3.
if(NOT COLLWRAP_JSONSCHEMA_PYTHON)
  foreach(candidate ${Python3_EXECUTABLE} /usr/bin/python3)
    execute_process(COMMAND ${candidate} -c "import jsonschema"
                    RESULT_VARIABLE missing OUTPUT_QUIET ERROR_QUIET)
    if(missing EQUAL 0)
      set(COLLWRAP_JSONSCHEMA_PYTHON ${candidate} CACHE FILEPATH
          "Python 3 with the jsonschema module (Debian: python3-jsonschema)")
      break()
    endif()
  endforeach()
  if(NOT COLLWRAP_JSONSCHEMA_PYTHON)
    message(FATAL_ERROR "No Python 3 with the jsonschema module; install python3-jsonschema "
                        "(share/scripts/install-deps.sh) or set COLLWRAP_JSONSCHEMA_PYTHON")
  endif()
endif()
