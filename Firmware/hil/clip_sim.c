/*
 * clip_sim: run the LiftBuddy clip firmware (the -DLIFTBUDDY_SIM_SENSORS
 * image) in simavr as an ATmega328P at 16 MHz, with its UART0 bridged to a
 * pseudo-terminal by libsimavrparts' uart_pty, paced to wall-clock real time
 * (the daemon timestamps lines on arrival, so the simulation must not run
 * ahead of the clock).
 *
 *   clip_sim [--link PATH] [--speed X] [--seconds S] FIRMWARE.elf
 *
 *   --link PATH   also make PATH a symlink to the pty (removed on exit)
 *   --speed X     simulated seconds per wall second (default 1 = real time;
 *                 0 = as fast as possible, unpaced)
 *   --seconds S   stop after S simulated seconds (default: run until killed)
 *
 * Prints "pty <path>" (and "link <path>") on stdout once the pty exists, then
 * runs until SIGINT/SIGTERM or --seconds. Warnings go to stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>
#include <uart_pty.h>

static volatile sig_atomic_t stop_requested = 0;
static void on_signal(int sig) { (void)sig; stop_requested = 1; }

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* uart_pty_connect() also points /tmp/simavr-uart0 at the pty: remove that
 * link on exit if it is still ours. */
static void unlink_simavr_link(const char *slavename) {
  char target[256];
  ssize_t n = readlink("/tmp/simavr-uart0", target, sizeof target - 1);
  if (n > 0) {
    target[n] = 0;
    if (!strcmp(target, slavename)) unlink("/tmp/simavr-uart0");
  }
}

static void usage(const char *argv0) {
  fprintf(stderr, "usage: %s [--link PATH] [--speed X] [--seconds S] FIRMWARE.elf\n", argv0);
  exit(2);
}

int main(int argc, char **argv) {
  const char *link_path = NULL, *elf_path = NULL;
  double speed = 1.0, limit_s = 0.0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--link") && i + 1 < argc) link_path = argv[++i];
    else if (!strcmp(argv[i], "--speed") && i + 1 < argc) speed = atof(argv[++i]);
    else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) limit_s = atof(argv[++i]);
    else if (argv[i][0] == '-') usage(argv[0]);
    else if (!elf_path) elf_path = argv[i];
    else usage(argv[0]);
  }
  if (!elf_path || speed < 0) usage(argv[0]);

  elf_firmware_t fw;
  memset(&fw, 0, sizeof fw);
  if (elf_read_firmware(elf_path, &fw) != 0) {
    fprintf(stderr, "clip_sim: cannot read %s\n", elf_path);
    return 1;
  }
  strcpy(fw.mmcu, "atmega328p");
  fw.frequency = 16000000;

  avr_t *avr = avr_make_mcu_by_name(fw.mmcu);
  if (!avr) {
    fprintf(stderr, "clip_sim: simavr has no atmega328p\n");
    return 1;
  }
  avr_init(avr);
  avr_load_firmware(avr, &fw);
  avr->frequency = fw.frequency;
  avr->log = LOG_ERROR;

  static uart_pty_t pty;
  uart_pty_init(avr, &pty);
  uart_pty_connect(&pty, '0');
  /* Bytes go to the pty only, not also to the console. */
  uint32_t flags = 0;
  avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
  flags &= ~AVR_UART_FLAG_STDIO;
  avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);

  printf("pty %s\n", pty.pty.slavename);
  if (link_path) {
    unlink(link_path);
    if (symlink(pty.pty.slavename, link_path) != 0) {
      fprintf(stderr, "clip_sim: symlink %s: %s\n", link_path, strerror(errno));
      unlink_simavr_link(pty.pty.slavename);
      _exit(1);
    }
    printf("link %s\n", link_path);
  }
  fflush(stdout);

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);

  const avr_cycle_count_t chunk = fw.frequency / 1000; /* check the clock every simulated ms */
  const double t0 = now_s();
  double last_warn = t0;
  int state = cpu_Running;
  while (!stop_requested) {
    const avr_cycle_count_t until = avr->cycle + chunk;
    while (avr->cycle < until) {
      state = avr_run(avr);
      if (state == cpu_Done || state == cpu_Crashed) break;
    }
    if (state == cpu_Done || state == cpu_Crashed) {
      fprintf(stderr, "clip_sim: firmware %s at %.3f s\n", state == cpu_Done ? "stopped" : "crashed",
              (double)avr->cycle / avr->frequency);
      break;
    }
    const double sim_s = (double)avr->cycle / avr->frequency;
    if (limit_s > 0 && sim_s >= limit_s) break;
    if (speed > 0) {
      const double wall = now_s() - t0;
      const double ahead = sim_s / speed - wall;
      if (ahead > 0.001) {
        struct timespec ts = {(time_t)ahead, (long)((ahead - (time_t)ahead) * 1e9)};
        nanosleep(&ts, NULL);
      } else if (ahead < -0.25 && wall - (last_warn - t0) > 5.0) {
        last_warn = now_s();
        fprintf(stderr, "clip_sim: warning: simulation %.2f s behind real time\n", -ahead);
      }
    }
  }

  /* Not uart_pty_stop(): its thread never leaves its select() loop once a
   * reader has come and gone, so joining it hangs. Exiting ends the thread. */
  if (link_path) unlink(link_path);
  unlink_simavr_link(pty.pty.slavename);
  fflush(stdout);
  _exit(state == cpu_Crashed ? 1 : 0);
}
