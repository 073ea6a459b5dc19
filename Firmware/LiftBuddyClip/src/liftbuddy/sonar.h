// HC-SR04 echo time -> distance, with the speed of sound. Plain C++.
#pragma once
#include <stdint.h>
#include "config.h"

namespace liftbuddy {

// Speed of sound in dry air, in tenths of m/s: c ≈ 331.3 + 0.606·T (T in °C).
inline uint16_t speed_of_sound_dms(int16_t temperature_c) {
  return static_cast<uint16_t>(3313 + (606L * temperature_c + (temperature_c >= 0 ? 50 : -50)) / 100);
}

// One-way distance in millimetres (= tenths of a cm) for a round-trip echo of
// echo_us microseconds: d = t·c/2. Rounded to the nearest mm; saturates at 65535.
inline uint16_t echo_us_to_mm(uint32_t echo_us, uint16_t c_dms = speed_of_sound_dms(kAirTemperatureC)) {
  // echo_us ≤ ~1.2e6 keeps echo_us·c inside 32 bits; longer echoes saturate.
  if (echo_us > 1000000UL) return 65535;
  uint32_t mm = (echo_us * c_dms + 10000UL) / 20000UL;
  return mm > 65535UL ? 65535 : static_cast<uint16_t>(mm);
}

// Inverse of echo_us_to_mm (used by the simulated sensor and the tests).
inline uint32_t mm_to_echo_us(uint16_t mm, uint16_t c_dms = speed_of_sound_dms(kAirTemperatureC)) {
  return (static_cast<uint32_t>(mm) * 20000UL + c_dms / 2) / c_dms;
}

inline bool in_sonar_range(uint16_t mm) { return mm >= kMinRangeMm && mm <= kMaxRangeMm; }

}  // namespace liftbuddy
