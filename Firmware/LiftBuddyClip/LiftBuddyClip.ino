// LiftBuddy smart barbell clip firmware (Arduino Uno / Nano, ATmega328P).
//
// Streams, over the hardware serial port (USB, or an HM-10 on D0/D1):
//   s:<cm>:<millis>            sonar distance clip->floor, 20 Hz
//   a:<pitch>:<roll>:<millis>  bar attitude in degrees, 20 Hz
// See README.md for wiring, rates and the line format.
//
// Build with -DLIFTBUDDY_SIM_SENSORS for the firmware-in-the-loop image: only
// the `sensors` layer below is replaced (by a scripted squat set); scheduling,
// filtering and formatting are the same code as on the real clip.

#include <Arduino.h>

#include "src/liftbuddy/attitude.h"
#include "src/liftbuddy/config.h"
#include "src/liftbuddy/line_format.h"
#include "src/liftbuddy/ping_scheduler.h"
#include "src/liftbuddy/sonar.h"

#ifdef LIFTBUDDY_SIM_SENSORS
#include "src/liftbuddy/sim_trajectory.h"
#else
#include <Wire.h>
#endif

using namespace liftbuddy;

// ---- Pins (Uno/Nano) --------------------------------------------------------
static const uint8_t kPinEcho = 2;  // HC-SR04 ECHO, on INT0 (5 V board: wire directly)
static const uint8_t kPinTrig = 4;  // HC-SR04 TRIG
static const uint8_t kPinLed = 13;  // on while the gyro is being calibrated
static const uint8_t kMpuAddress = 0x68;  // MPU6050 with AD0 low

// ---- Sensor layer: the only part LIFTBUDDY_SIM_SENSORS replaces ----------------
namespace sensors {

#ifndef LIFTBUDDY_SIM_SENSORS

// Echo capture by pin-change on INT0: the rising edge starts, the falling
// edge ends the pulse. Only the edges of an armed ping count.
enum : uint8_t { kEchoIdle = 0, kEchoArmed, kEchoRising, kEchoDone };
static volatile uint8_t echo_state = kEchoIdle;
static volatile uint32_t echo_rise_us = 0;
static volatile uint32_t echo_width_us = 0;

static void echo_isr() {
  const uint32_t now = micros();
  const bool high = (PIND & _BV(PIND2)) != 0;  // D2
  if (high) {
    if (echo_state == kEchoArmed) {
      echo_rise_us = now;
      echo_state = kEchoRising;
    }
  } else if (echo_state == kEchoRising) {
    echo_width_us = now - echo_rise_us;
    echo_state = kEchoDone;
  }
}

static bool mpu_write(uint8_t reg, uint8_t value) {
  Wire.beginTransmission(kMpuAddress);
  Wire.write(reg);
  Wire.write(value);
  return Wire.endTransmission() == 0;
}

static bool mpu_init() {
  return mpu_write(0x6B, 0x01)      // PWR_MGMT_1: wake, clock from gyro X PLL
         && mpu_write(0x19, 0x04)   // SMPLRT_DIV: 1 kHz / 5 = 200 Hz internal rate
         && mpu_write(0x1A, 0x03)   // CONFIG: DLPF 44 Hz (accel) / 42 Hz (gyro)
         && mpu_write(0x1B, 0x08)   // GYRO_CONFIG: ±500 °/s
         && mpu_write(0x1C, 0x08);  // ACCEL_CONFIG: ±4 g
}

static bool mpu_ok = false;
static uint32_t mpu_retry_ms = 0;

void begin() {
  pinMode(kPinTrig, OUTPUT);
  digitalWrite(kPinTrig, LOW);
  pinMode(kPinEcho, INPUT);
  attachInterrupt(digitalPinToInterrupt(kPinEcho), echo_isr, CHANGE);
  Wire.begin();
  Wire.setClock(400000);
  Wire.setWireTimeout(3000, true);  // a loose I2C wire must not hang the sonar
  mpu_ok = mpu_init();
  mpu_retry_ms = millis();
}

bool echo_line_high() { return digitalRead(kPinEcho) == HIGH; }

void fire_ping(uint32_t /*now_us*/) {
  noInterrupts();
  echo_state = kEchoArmed;
  interrupts();
  digitalWrite(kPinTrig, HIGH);
  delayMicroseconds(10);
  digitalWrite(kPinTrig, LOW);
}

bool echo_complete(uint32_t /*now_us*/, uint32_t* width_us) {
  noInterrupts();
  const bool done = echo_state == kEchoDone;
  const uint32_t w = echo_width_us;
  interrupts();
  if (done) *width_us = w;
  return done;
}

void disarm_echo() {
  noInterrupts();
  echo_state = kEchoIdle;
  interrupts();
}

bool read_imu(ImuRaw* out) {
  if (!mpu_ok) {
    // Re-initialise once a second, so a reconnected IMU comes back.
    if (millis() - mpu_retry_ms < 1000) return false;
    mpu_retry_ms = millis();
    mpu_ok = mpu_init();
    if (!mpu_ok) return false;
  }
  Wire.beginTransmission(kMpuAddress);
  Wire.write(0x3B);  // ACCEL_XOUT_H .. GYRO_ZOUT_L: 14 bytes
  if (Wire.endTransmission(false) != 0 || Wire.requestFrom(kMpuAddress, (uint8_t)14) != 14) {
    mpu_ok = false;
    mpu_retry_ms = millis();
    return false;
  }
  int16_t v[7];
  for (uint8_t i = 0; i < 7; ++i) {
    const uint8_t hi = Wire.read();
    const uint8_t lo = Wire.read();
    v[i] = (int16_t)((hi << 8) | lo);
  }
  out->ax = v[0];
  out->ay = v[1];
  out->az = v[2];  // v[3] is the die temperature
  out->gx = v[4];
  out->gy = v[5];
  out->gz = v[6];
  return true;
}

#else  // LIFTBUDDY_SIM_SENSORS: a scripted squat set instead of the hardware

static uint16_t rng = 0xACE1;
static bool sim_armed = false;
static uint32_t sim_echo_fall_us = 0;
static uint32_t sim_width_us = 0;

void begin() { pinMode(kPinTrig, OUTPUT); }

// The sim's echo pulse starts ~460 µs after the trigger (the 8-cycle burst)
// and lasts as long as the scripted height says.
bool echo_line_high() { return false; }

void fire_ping(uint32_t now_us) {
  sim_width_us = sim::echo_us(millis(), &rng);
  sim_echo_fall_us = now_us + 460 + sim_width_us;
  sim_armed = true;
}

bool echo_complete(uint32_t now_us, uint32_t* width_us) {
  if (!sim_armed || (int32_t)(now_us - sim_echo_fall_us) < 0) return false;
  sim_armed = false;
  *width_us = sim_width_us;
  return true;
}

void disarm_echo() { sim_armed = false; }

bool read_imu(ImuRaw* out) {
  *out = sim::imu(millis(), &rng);
  return true;
}

#endif

}  // namespace sensors

// ---- Firmware proper: identical in the real and the simulated build ----------

static PingScheduler pinger(kPingPeriodUs, kEchoTimeoutUs);
static AttitudeEstimator attitude(kFilterAlpha, kAccelLsbPerG, kGyroLsbPerDps,
                                  kCalibrationSamples, kCalibrationMaxSpreadLsb,
                                  kCalibrationMaxAttempts);
static uint32_t ping_ms = 0;     // device clock at the current ping's trigger
static uint32_t imu_due_us = 0;  // next IMU sample slot
static uint32_t imu_last_us = 0;
static uint8_t imu_count = 0;

static void send_line(const char* buf, size_t len) { Serial.write((const uint8_t*)buf, len); }

static void service_sonar(uint32_t now_us) {
  uint32_t width = 0;
  const bool done = sensors::echo_complete(now_us, &width);
  switch (pinger.poll(now_us, sensors::echo_line_high(), done, width)) {
    case PingScheduler::kFire:
      ping_ms = millis();
      sensors::fire_ping(now_us);
      break;
    case PingScheduler::kMeasured: {
      const uint16_t mm = echo_us_to_mm(pinger.width_us());
      if (in_sonar_range(mm)) {  // out of 2–400 cm: not sent (README)
        char buf[kMaxLineLength];
        send_line(buf, format_sonar(buf, mm, ping_ms));
      }
      break;
    }
    case PingScheduler::kTimedOut:  // no echo: nothing to send
      sensors::disarm_echo();
      break;
    default:
      break;
  }
}

static void service_imu(uint32_t now_us) {
  if ((int32_t)(now_us - imu_due_us) < 0) return;
  imu_due_us += kImuPeriodUs;
  if ((int32_t)(now_us - imu_due_us) >= 0) imu_due_us = now_us + kImuPeriodUs;
  ImuRaw raw;
  if (!sensors::read_imu(&raw)) return;
  const uint32_t sample_ms = millis();
  const float dt = (imu_last_us == 0) ? kImuPeriodUs * 1e-6f : (now_us - imu_last_us) * 1e-6f;
  imu_last_us = now_us;
  const bool ready = attitude.update(raw, dt > 0.1f ? 0.1f : dt);
  digitalWrite(kPinLed, ready ? LOW : HIGH);
  if (!ready) return;
  if (++imu_count < kImuLineEvery) return;
  imu_count = 0;
  char buf[kMaxLineLength];
  send_line(buf, format_attitude(buf, to_tenths(attitude.pitch()), to_tenths(attitude.roll()),
                                 sample_ms));
}

void setup() {
  pinMode(kPinLed, OUTPUT);
  digitalWrite(kPinLed, HIGH);
  Serial.begin(kBaud);
  sensors::begin();
  // IMU lines are offset half a sonar period from the pings, so the two
  // kinds of line leave the UART spread out rather than back to back.
  imu_due_us = micros() + kPingPeriodUs / 2;
}

void loop() {
  const uint32_t now_us = micros();
  service_sonar(now_us);
  service_imu(now_us);
}
