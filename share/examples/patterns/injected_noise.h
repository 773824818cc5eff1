/* Injected system noise for the *_completion examples: a timer interrupts the calling rank
 * after a chosen time and the signal handler sleeps, so that the rank loses its CPU inside
 * whatever MPI call it is in at that moment, as under real noise or oversubscription. */
#ifndef COLLWRAP_EXAMPLES_INJECTED_NOISE_H
#define COLLWRAP_EXAMPLES_INJECTED_NOISE_H

#include <signal.h>
#include <sys/time.h>
#include <time.h>

static long injected_noise_us;

static void injected_noise_handler(int signal_number) {
  (void)signal_number;
  struct timespec left = {injected_noise_us / 1000000L, (injected_noise_us % 1000000L) * 1000L};
  while (nanosleep(&left, &left) != 0) {
  }
}

/* Every later interrupt_after() makes the rank sleep `noise_us` when its timer fires. */
static void install_noise(long noise_us) {
  injected_noise_us = noise_us;
  struct sigaction action = {0};
  action.sa_handler = injected_noise_handler;
  action.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &action, NULL);
}

static void interrupt_after(long microseconds) {
  const struct itimerval timer = {{0, 0}, {0, microseconds}};
  setitimer(ITIMER_REAL, &timer, NULL);
}

#endif
