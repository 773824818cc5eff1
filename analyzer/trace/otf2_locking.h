// OTF2's Pthread locking callbacks, which let several threads read one archive through one
// OTF2_Reader (OTF2_Pthread_Reader_SetLockingCallbacks).
#pragma once

// OTF2_Pthread_Locks.h calls malloc and free without including <cstdlib> itself.
// clang-format off
#include <cstdlib>
#include <otf2/OTF2_Pthread_Locks.h>
// clang-format on
