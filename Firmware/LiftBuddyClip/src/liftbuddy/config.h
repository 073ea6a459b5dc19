// LiftBuddy clip: the numbers that define the stream. Plain C++, no Arduino.
// README.md documents these values once; change them here and there together.
#pragma once
#include <stdint.h>

namespace liftbuddy {

// Serial: 115200 baud, 8N1 (USB serial or an HM-10 set with AT+BAUD4).
constexpr uint32_t kBaud = 115200;

// Sonar: one ping every 50 ms = 20 Hz. The echo is waited for at most 30 ms
// (≈ 5.1 m of range at 343 m/s), leaving ≥ 20 ms of quiet before the next
// ping for late reflections to die away. 20 Hz is also the contract's
// default `rate_hz` for raw captures, so a raw capture without a header is
// timed right.
constexpr uint32_t kPingPeriodUs = 50000;
constexpr uint32_t kEchoTimeoutUs = 30000;

// Valid HC-SR04 range, in millimetres (2–400 cm). Readings outside it, and
// pings with no echo, are not sent (see README).
constexpr uint16_t kMinRangeMm = 20;
constexpr uint16_t kMaxRangeMm = 4000;

// Air temperature assumed for the speed of sound, in °C (343.4 m/s at 20 °C).
constexpr int16_t kAirTemperatureC = 20;

// IMU: sampled and filtered at 100 Hz; every 5th filtered value is sent,
// so `a:` lines go out at 20 Hz, the same rate as `s:` lines.
constexpr uint32_t kImuPeriodUs = 10000;
constexpr uint8_t kImuLineEvery = 5;

// Complementary filter weight of the gyro path per 10 ms step
// (time constant ≈ 0.49 s).
constexpr float kFilterAlpha = 0.98f;

// Gyro-bias calibration at start-up: 100 samples (1 s) with the bar still.
constexpr uint16_t kCalibrationSamples = 100;
// "Still" = every gyro axis stays within this band (raw LSB, 65.5 LSB/°/s
// at ±500 °/s, so ~2 °/s) over the whole window.
constexpr int16_t kCalibrationMaxSpreadLsb = 130;
// Give up waiting for stillness after this many windows and use the last one.
constexpr uint8_t kCalibrationMaxAttempts = 10;

// MPU6050 full-scale settings used by the firmware.
constexpr float kAccelLsbPerG = 8192.0f;   // ±4 g
constexpr float kGyroLsbPerDps = 65.5f;    // ±500 °/s

}  // namespace liftbuddy
