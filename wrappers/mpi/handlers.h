// Everything the generated wrappers (gen_wrappers.py, wrapper_spec.py) call: the semantic
// handlers, grouped by the part of MPI they give meaning to.
#pragma once

#include "mpi/collectives.h"
#include "mpi/comms.h"
#include "mpi/completion.h"
#include "mpi/lifecycle.h"
#include "mpi/one_sided.h"
#include "mpi/point_to_point.h"
#include "mpi/semantics.h"
#include "mpi/status_slot.h"
