/*
 * clip_sim: run the LiftBuddy clip firmware (the -DLIFTBUDDY_SIM_SENSORS
 * image) in simavr as an ATmega328P at 16 MHz, with its UART0 bridged to a
 * pseudo-terminal by libsimavrparts' uart_pty, paced to wall-clock real time
 * (the daemon timestamps lines on arrival, so the simulation must not run
 * ahead of the clock).
 *
 *   clip_sim [--link PATH] [--speed X] [--seconds S] [--out FILE]
 *            [--hcsr04 MM] [--mpu6050 PITCH,ROLL] FIRMWARE.elf
 *
 *   --link PATH   also make PATH a symlink to the pty (removed on exit)
 *   --speed X     simulated seconds per wall second (default 1 = real time;
 *                 0 = as fast as possible, unpaced)
 *   --seconds S   stop after S simulated seconds (default: run until killed)
 *   --out FILE    also write every byte the firmware sends to FILE
 *
 * Parts at the pin/bus level, for the real (not LIFTBUDDY_SIM_SENSORS) image:
 *   --hcsr04 MM          an HC-SR04 on D4 (TRIG) / D2 (ECHO) seeing a target
 *                        MM millimetres away (0: never an echo); speed of
 *                        sound 343.4 m/s; the echo rises 460 us after TRIG
 *                        falls and lasts the round trip
 *   --mpu6050 P,R        an MPU6050 at I2C address 0x68, held still at pitch P
 *                        and roll R degrees (firmware axes: X along the bar),
 *                        with a small constant gyro bias; it honours the
 *                        sleep bit and the accel/gyro full-scale settings
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

#include <math.h>

#include <avr_ioport.h>
#include <avr_twi.h>
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
  fprintf(stderr,
          "usage: %s [--link PATH] [--speed X] [--seconds S] [--out FILE]\n"
          "          [--hcsr04 MM] [--mpu6050 PITCH,ROLL] FIRMWARE.elf\n",
          argv0);
  exit(2);
}

/* ---- --out: a copy of the UART's bytes ---------------------------------- */
static FILE *out_file;
static void uart_out_hook(avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)param;
  fputc((int)(value & 0xff), out_file);
}

/* ---- --hcsr04: TRIG on PD4, ECHO on PD2 --------------------------------- */
static avr_irq_t *echo_pin;
static uint32_t echo_width_us;
static int trig_level;
static int echo_busy;

static avr_cycle_count_t echo_fall(avr_t *avr, avr_cycle_count_t when, void *param) {
  (void)avr;
  (void)when;
  (void)param;
  avr_raise_irq(echo_pin, 0);
  echo_busy = 0;
  return 0;
}
static avr_cycle_count_t echo_rise(avr_t *avr, avr_cycle_count_t when, void *param) {
  (void)when;
  (void)param;
  avr_raise_irq(echo_pin, 1);
  avr_cycle_timer_register_usec(avr, echo_width_us, echo_fall, NULL);
  return 0;
}
static void trig_hook(avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  avr_t *avr = (avr_t *)param;
  const int level = value != 0;
  if (trig_level && !level && echo_width_us > 0 && !echo_busy) {
    echo_busy = 1;
    avr_cycle_timer_register_usec(avr, 460, echo_rise, NULL);
  }
  trig_level = level;
}

static void attach_hcsr04(avr_t *avr, double mm) {
  echo_width_us = mm > 0 ? (uint32_t)(mm * 2.0 / 343.4 * 1000.0 + 0.5) : 0;
  echo_pin = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), IOPORT_IRQ_PIN2);
  avr_raise_irq(echo_pin, 0);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), IOPORT_IRQ_PIN4),
                          trig_hook, avr);
}

/* ---- --mpu6050: a register file on the TWI bus -------------------------- */
static struct {
  avr_irq_t *irq; /* [TWI_IRQ_INPUT], [TWI_IRQ_OUTPUT] of the part */
  uint8_t reg[128];
  uint8_t ptr;
  int selected, index;
  double pitch_deg, roll_deg;
} mpu;

static void put16(uint8_t at, int v) {
  if (v > 32767) v = 32767;
  if (v < -32768) v = -32768;
  mpu.reg[at] = (uint8_t)((v >> 8) & 0xff);
  mpu.reg[at + 1] = (uint8_t)(v & 0xff);
}

/* Fills the sensor registers from the held attitude and the current settings. */
static void mpu_refresh(void) {
  if (mpu.reg[0x6B] & 0x40) { /* asleep: data registers read 0 */
    memset(&mpu.reg[0x3B], 0, 14);
    return;
  }
  const double lsb_g = 16384.0 / (1 << ((mpu.reg[0x1C] >> 3) & 3));
  const double lsb_dps = 131.0 / (1 << ((mpu.reg[0x1B] >> 3) & 3));
  const double p = mpu.pitch_deg * M_PI / 180.0, r = mpu.roll_deg * M_PI / 180.0;
  put16(0x3B, (int)lround(-sin(p) * lsb_g));
  put16(0x3D, (int)lround(cos(p) * sin(r) * lsb_g));
  put16(0x3F, (int)lround(cos(p) * cos(r) * lsb_g));
  put16(0x41, (int)lround((25.0 - 36.53) * 340.0)); /* 25 degC */
  put16(0x43, (int)lround(1.2 * lsb_dps));          /* gyro bias, deg/s */
  put16(0x45, (int)lround(-0.7 * lsb_dps));
  put16(0x47, (int)lround(0.3 * lsb_dps));
}

static void mpu_twi_hook(avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)param;
  avr_twi_msg_irq_t v;
  v.u.v = value;
  if (v.u.twi.msg & TWI_COND_STOP) mpu.selected = 0;
  if (v.u.twi.msg & TWI_COND_START) {
    mpu.selected = 0;
    mpu.index = 0;
    if ((v.u.twi.addr >> 1) == 0x68) {
      mpu.selected = v.u.twi.addr;
      avr_raise_irq(mpu.irq + TWI_IRQ_INPUT, avr_twi_irq_msg(TWI_COND_ACK, mpu.selected, 1));
      if (v.u.twi.addr & 1) mpu_refresh(); /* a read: latch a fresh sample */
    }
  }
  if (!mpu.selected) return;
  if (v.u.twi.msg & TWI_COND_WRITE) {
    avr_raise_irq(mpu.irq + TWI_IRQ_INPUT, avr_twi_irq_msg(TWI_COND_ACK, mpu.selected, 1));
    if (mpu.index++ == 0) {
      mpu.ptr = v.u.twi.data & 0x7f;
    } else {
      mpu.reg[mpu.ptr] = v.u.twi.data;
      mpu.ptr = (mpu.ptr + 1) & 0x7f;
    }
  }
  if (v.u.twi.msg & TWI_COND_READ) {
    avr_raise_irq(mpu.irq + TWI_IRQ_INPUT,
                  avr_twi_irq_msg(TWI_COND_READ, mpu.selected, mpu.reg[mpu.ptr]));
    mpu.ptr = (mpu.ptr + 1) & 0x7f;
  }
}

static void attach_mpu6050(avr_t *avr, double pitch, double roll) {
  static const char *names[2] = {"8>mpu6050.in", "8<mpu6050.out"};
  memset(mpu.reg, 0, sizeof mpu.reg);
  mpu.reg[0x6B] = 0x40; /* reset state: asleep */
  mpu.reg[0x75] = 0x68; /* WHO_AM_I */
  mpu.pitch_deg = pitch;
  mpu.roll_deg = roll;
  mpu.irq = avr_alloc_irq(&avr->irq_pool, 0, 2, names);
  avr_irq_register_notify(mpu.irq + TWI_IRQ_OUTPUT, mpu_twi_hook, NULL);
  avr_connect_irq(mpu.irq + TWI_IRQ_INPUT, avr_io_getirq(avr, AVR_IOCTL_TWI_GETIRQ(0), TWI_IRQ_INPUT));
  avr_connect_irq(avr_io_getirq(avr, AVR_IOCTL_TWI_GETIRQ(0), TWI_IRQ_OUTPUT), mpu.irq + TWI_IRQ_OUTPUT);
}

int main(int argc, char **argv) {
  const char *link_path = NULL, *elf_path = NULL, *out_path = NULL;
  double speed = 1.0, limit_s = 0.0, hcsr04_mm = -1, mpu_pitch = 0, mpu_roll = 0;
  int with_mpu = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--link") && i + 1 < argc) link_path = argv[++i];
    else if (!strcmp(argv[i], "--speed") && i + 1 < argc) speed = atof(argv[++i]);
    else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) limit_s = atof(argv[++i]);
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) out_path = argv[++i];
    else if (!strcmp(argv[i], "--hcsr04") && i + 1 < argc) hcsr04_mm = atof(argv[++i]);
    else if (!strcmp(argv[i], "--mpu6050") && i + 1 < argc) {
      if (sscanf(argv[++i], "%lf,%lf", &mpu_pitch, &mpu_roll) != 2) usage(argv[0]);
      with_mpu = 1;
    }
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

  if (out_path) {
    out_file = fopen(out_path, "w");
    if (!out_file) {
      fprintf(stderr, "clip_sim: %s: %s\n", out_path, strerror(errno));
      return 1;
    }
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            uart_out_hook, NULL);
  }
  if (hcsr04_mm >= 0) attach_hcsr04(avr, hcsr04_mm);
  if (with_mpu) attach_mpu6050(avr, mpu_pitch, mpu_roll);

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
  if (out_file) fclose(out_file);
  fflush(stdout);
  _exit(state == cpu_Crashed ? 1 : 0);
}
