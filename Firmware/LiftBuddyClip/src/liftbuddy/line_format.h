// Protocol line formatting: `s:<cm>:<millis>\n` and
// `a:<pitch>:<roll>:<millis>\n`, numbers with one decimal.
// Plain C++ (host-testable), no printf (avr-libc's has no %f by default).
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace liftbuddy {

// Longest line: "a:-1800.0:-1800.0:4294967295\n" = 29 chars; keep a margin.
constexpr size_t kMaxLineLength = 40;

// Writes v in decimal at p; returns the number of chars written.
inline size_t put_uint(char* p, uint32_t v) {
  char tmp[10];
  size_t n = 0;
  do {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  for (size_t i = 0; i < n; ++i) p[i] = tmp[n - 1 - i];
  return n;
}

// Writes tenths/10 with exactly one decimal ("-0.5", "12.0", "0.0").
inline size_t put_tenths(char* p, int32_t tenths) {
  size_t n = 0;
  uint32_t mag;
  if (tenths < 0) {
    p[n++] = '-';
    mag = static_cast<uint32_t>(-(tenths + 1)) + 1u;  // no overflow at INT32_MIN
  } else {
    mag = static_cast<uint32_t>(tenths);
  }
  n += put_uint(p + n, mag / 10);
  p[n++] = '.';
  p[n++] = static_cast<char>('0' + mag % 10);
  return n;
}

// Rounds a float to tenths, half away from zero, clamped to ±99999.9.
inline int32_t to_tenths(float v) {
  if (!(v == v)) return 0;  // NaN: never sent as such
  float scaled = v * 10.0f;
  if (scaled > 999999.0f) scaled = 999999.0f;
  if (scaled < -999999.0f) scaled = -999999.0f;
  return scaled >= 0 ? static_cast<int32_t>(scaled + 0.5f)
                     : -static_cast<int32_t>(-scaled + 0.5f);
}

// `s:<cm>:<millis>\n` from a distance in millimetres (= tenths of a cm).
// buf must hold kMaxLineLength chars; returns the length (no NUL written).
inline size_t format_sonar(char* buf, uint16_t distance_mm, uint32_t millis) {
  size_t n = 0;
  buf[n++] = 's';
  buf[n++] = ':';
  n += put_tenths(buf + n, distance_mm);
  buf[n++] = ':';
  n += put_uint(buf + n, millis);
  buf[n++] = '\n';
  return n;
}

// `a:<pitch>:<roll>:<millis>\n` from angles in tenths of a degree.
inline size_t format_attitude(char* buf, int32_t pitch_tenths, int32_t roll_tenths,
                              uint32_t millis) {
  size_t n = 0;
  buf[n++] = 'a';
  buf[n++] = ':';
  n += put_tenths(buf + n, pitch_tenths);
  buf[n++] = ':';
  n += put_tenths(buf + n, roll_tenths);
  buf[n++] = ':';
  n += put_uint(buf + n, millis);
  buf[n++] = '\n';
  return n;
}

}  // namespace liftbuddy
