// collwrap-bench's subcommands. Each takes the arguments after its name (argv[0] is the
// subcommand's name), runs inside MPI_Init/MPI_Finalize done by main, and returns the process
// exit status: 0 done, 1 the measurement failed, 2 usage error. Only rank 0 prints results.
#pragma once

namespace collwrap::bench {

int run_coll(int argc, char** argv);    // MPIPerf: synchronized-start collective timing
int run_timer(int argc, char** argv);   // WaitPatternNull / WaitPatternUp (collwrap-timercheck)
int run_ops(int argc, char** argv);     // MPITEST: basic-operations table
int run_matrix(int argc, char** argv);  // network_test: pairwise N×N matrices
int run_noise(int argc, char** argv);   // NoM: OS-noise collection, analysis and prediction

}  // namespace collwrap::bench
