// Host unit tests of the clip's plain-C++ logic (built with g++ by `make test`).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <vector>

#include "liftbuddy/attitude.h"
#include "liftbuddy/config.h"
#include "liftbuddy/line_format.h"
#include "liftbuddy/ping_scheduler.h"
#include "liftbuddy/sim_trajectory.h"
#include "liftbuddy/sonar.h"

using namespace liftbuddy;

static int g_failures = 0;
static int g_checks = 0;

#define CHECK(cond)                                                        \
  do {                                                                     \
    ++g_checks;                                                            \
    if (!(cond)) {                                                         \
      ++g_failures;                                                        \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                      \
  } while (0)
#define CHECK_EQ_STR(a, b)                                                                   \
  do {                                                                                       \
    ++g_checks;                                                                              \
    const std::string sa = (a), sb = (b);                                                    \
    if (sa != sb) {                                                                          \
      ++g_failures;                                                                          \
      fprintf(stderr, "%s:%d: \"%s\" != \"%s\"\n", __FILE__, __LINE__, sa.c_str(), sb.c_str()); \
    }                                                                                        \
  } while (0)
#define CHECK_NEAR(a, b, tol)                                                            \
  do {                                                                                   \
    ++g_checks;                                                                          \
    const double va = (a), vb = (b);                                                     \
    if (!(fabs(va - vb) <= (tol))) {                                                     \
      ++g_failures;                                                                      \
      fprintf(stderr, "%s:%d: %s = %g, expected %g ± %g\n", __FILE__, __LINE__, #a, va, vb, \
              (double)(tol));                                                            \
    }                                                                                    \
  } while (0)

static std::string sonar_line(uint16_t mm, uint32_t ms) {
  char buf[kMaxLineLength];
  size_t n = format_sonar(buf, mm, ms);
  return std::string(buf, n);
}
static std::string attitude_line(int32_t p, int32_t r, uint32_t ms) {
  char buf[kMaxLineLength];
  size_t n = format_attitude(buf, p, r, ms);
  return std::string(buf, n);
}

static void test_line_format() {
  CHECK_EQ_STR(sonar_line(523, 12345), "s:52.3:12345\n");
  CHECK_EQ_STR(sonar_line(20, 0), "s:2.0:0\n");
  CHECK_EQ_STR(sonar_line(4000, 4294967295u), "s:400.0:4294967295\n");
  CHECK_EQ_STR(sonar_line(65535, 1), "s:6553.5:1\n");
  CHECK_EQ_STR(attitude_line(15, -3, 7), "a:1.5:-0.3:7\n");
  CHECK_EQ_STR(attitude_line(-5, 0, 10), "a:-0.5:0.0:10\n");
  CHECK_EQ_STR(attitude_line(-1800, 1800, 99), "a:-180.0:180.0:99\n");
  // The longest possible line fits the buffer with its margin.
  CHECK(attitude_line(-999999, -999999, 4294967295u).size() < kMaxLineLength);
  CHECK(attitude_line(INT32_MIN, INT32_MIN, 4294967295u).size() < kMaxLineLength);

  CHECK(to_tenths(1.25f) == 13);
  CHECK(to_tenths(-1.25f) == -13);
  CHECK(to_tenths(-0.04f) == 0);
  CHECK(to_tenths(-0.05f) == -1);
  CHECK(to_tenths(0.0f) == 0);
  CHECK(to_tenths(NAN) == 0);
  CHECK(to_tenths(1e9f) == 999999);
  CHECK(to_tenths(-1e9f) == -999999);
  // A negative value that rounds to zero prints without a minus sign.
  CHECK_EQ_STR(attitude_line(to_tenths(-0.04f), 0, 1), "a:0.0:0.0:1\n");
}

static void test_sonar_conversion() {
  CHECK(speed_of_sound_dms(20) == 3434);  // 331.3 + 0.606·20 = 343.42 m/s
  CHECK(speed_of_sound_dms(0) == 3313);
  CHECK(speed_of_sound_dms(-10) == 3252);  // 325.24
  CHECK(speed_of_sound_dms(30) == 3495);   // 349.48
  // 1 m at 343.4 m/s: 2 m of travel = 5824 µs.
  CHECK(echo_us_to_mm(5824) == 1000);
  CHECK(echo_us_to_mm(0) == 0);
  // The classic "58 µs per cm" rule of thumb.
  CHECK_NEAR(echo_us_to_mm(58 * 100), 1000, 5);
  // The 30 ms timeout is ≈ 5.15 m.
  CHECK(echo_us_to_mm(kEchoTimeoutUs) == 5151);
  CHECK(echo_us_to_mm(2000000) == 65535);
  // Round trip through the inverse, within 1 mm, across the range.
  for (uint16_t mm = 0; mm <= 5000; mm += 7) {
    uint16_t back = echo_us_to_mm(mm_to_echo_us(mm));
    CHECK(back + 1 >= mm && back <= mm + 1);
  }
  CHECK(!in_sonar_range(19));
  CHECK(in_sonar_range(20));
  CHECK(in_sonar_range(4000));
  CHECK(!in_sonar_range(4001));
  // Temperature matters: the same echo reads longer in warm air.
  CHECK(echo_us_to_mm(5824, speed_of_sound_dms(30)) > echo_us_to_mm(5824, speed_of_sound_dms(10)));
}

static void test_ping_scheduler_steady_rate() {
  PingScheduler s(50000, 30000);
  std::vector<uint32_t> fires;
  uint32_t fired_at = 0;
  bool armed = false;
  // Poll every 100 µs for one second; echoes of 5 ms.
  for (uint32_t t = 1000; t < 1001000; t += 100) {
    bool done = armed && t - fired_at >= 5000;
    auto a = s.poll(t, false, done, 5000);
    if (a == PingScheduler::kFire) {
      fires.push_back(t);
      fired_at = t;
      armed = true;
    } else if (a == PingScheduler::kMeasured) {
      CHECK(s.width_us() == 5000);
      armed = false;
    }
    CHECK(a != PingScheduler::kTimedOut);
  }
  CHECK(fires.size() == 20);
  for (size_t i = 1; i < fires.size(); ++i) CHECK(fires[i] - fires[i - 1] == 50000);
}

static void test_ping_scheduler_timeout_and_busy() {
  PingScheduler s(50000, 30000);
  CHECK(s.poll(0, false, false, 0) == PingScheduler::kFire);
  CHECK(s.poll(29999, false, false, 0) == PingScheduler::kNone);
  CHECK(s.poll(30000, false, false, 0) == PingScheduler::kTimedOut);
  CHECK(!s.waiting());
  // Next slot at 50 ms, but the echo line is still high (a clone holding it):
  CHECK(s.poll(49999, true, false, 0) == PingScheduler::kNone);
  CHECK(s.poll(50000, true, false, 0) == PingScheduler::kSkippedBusy);
  // ... and the slot after that fires on the same grid.
  CHECK(s.poll(99999, false, false, 0) == PingScheduler::kNone);
  CHECK(s.poll(100000, false, false, 0) == PingScheduler::kFire);
  CHECK(s.poll(100500, false, true, 1234) == PingScheduler::kMeasured);
  CHECK(s.width_us() == 1234);
}

static void test_ping_scheduler_late_polls_and_wrap() {
  // A poll a little late keeps the grid; a stall of several periods re-anchors.
  PingScheduler s(50000, 30000);
  CHECK(s.poll(0, false, false, 0) == PingScheduler::kFire);
  CHECK(s.poll(4000, false, true, 100) == PingScheduler::kMeasured);
  CHECK(s.poll(52000, false, false, 0) == PingScheduler::kFire);  // 2 ms late
  CHECK(s.poll(53000, false, true, 100) == PingScheduler::kMeasured);
  CHECK(s.poll(99999, false, false, 0) == PingScheduler::kNone);
  CHECK(s.poll(100000, false, false, 0) == PingScheduler::kFire);  // back on the grid
  CHECK(s.poll(101000, false, true, 100) == PingScheduler::kMeasured);
  CHECK(s.poll(400000, false, false, 0) == PingScheduler::kFire);  // after a stall
  CHECK(s.poll(401000, false, true, 100) == PingScheduler::kMeasured);
  CHECK(s.poll(440000, false, false, 0) == PingScheduler::kNone);  // no burst of catch-ups
  CHECK(s.poll(450000, false, false, 0) == PingScheduler::kFire);

  // micros() wraps every ~71.6 minutes: the rate must not notice.
  PingScheduler w(50000, 30000);
  uint32_t t = 0xFFFFFFFFu - 120000u;
  int fires = 0, timeouts = 0;
  for (int i = 0; i < 4000; ++i, t += 100) {
    auto a = w.poll(t, false, false, 0);
    if (a == PingScheduler::kFire) ++fires;
    if (a == PingScheduler::kTimedOut) ++timeouts;
  }
  CHECK(fires == 8);  // 400 ms across the wrap
  CHECK(timeouts == 8);
}

static void test_accel_angles() {
  CHECK_NEAR(accel_pitch_deg(0, 0, 8192), 0, 1e-4);
  CHECK_NEAR(accel_roll_deg(0, 8192), 0, 1e-4);
  // Tipped +30° about Y: ax = −sin30°, az = cos30°.
  CHECK_NEAR(accel_pitch_deg(-0.5f * 8192, 0, 0.8660254f * 8192), 30, 1e-3);
  // Rolled −45° about X: ay = sin(−45°), az = cos45°.
  CHECK_NEAR(accel_roll_deg(-0.7071068f * 8192, 0.7071068f * 8192), -45, 1e-3);
  CHECK_NEAR(wrap180(190), -170, 1e-4);
  CHECK_NEAR(wrap180(-180), 180, 1e-4);
  CHECK_NEAR(wrap180(720.5f), 0.5f, 1e-3);
}

static void test_complementary_filter() {
  // Seeded by the accelerometer, then follows a steady gyro rotation with no
  // accel correction needed when both agree.
  ComplementaryFilter f(0.98f);
  f.update(10, -5, 0, 0, 0.01f);
  CHECK_NEAR(f.pitch(), 10, 1e-5);
  CHECK_NEAR(f.roll(), -5, 1e-5);
  float truth = 10;
  for (int i = 0; i < 100; ++i) {
    truth += 20 * 0.01f;  // 20 °/s for 1 s
    f.update(truth, -5, 20, 0, 0.01f);
  }
  CHECK_NEAR(f.pitch(), 30, 0.01);
  CHECK_NEAR(f.roll(), -5, 0.01);

  // With the gyro silent, the accelerometer pulls the angle in, time constant
  // ≈ dt·α/(1−α) = 0.49 s: after 0.49 s about 63 % of a step.
  ComplementaryFilter g(0.98f);
  g.update(0, 0, 0, 0, 0.01f);
  for (int i = 0; i < 49; ++i) g.update(10, 0, 0, 0, 0.01f);
  CHECK_NEAR(g.pitch(), 6.3, 0.3);
  for (int i = 0; i < 500; ++i) g.update(10, 0, 0, 0, 0.01f);
  CHECK_NEAR(g.pitch(), 10, 0.01);

  // A constant gyro bias gives a bounded error of bias·τ instead of drifting.
  ComplementaryFilter h(0.98f);
  h.update(0, 0, 0, 0, 0.01f);
  for (int i = 0; i < 3000; ++i) h.update(0, 0, 1.0f, 0, 0.01f);
  CHECK_NEAR(h.pitch(), 0.49, 0.02);

  // Roll through ±180° does not spin the long way round.
  ComplementaryFilter r(0.98f);
  r.update(0, 179, 0, 0, 0.01f);
  for (int i = 0; i < 100; ++i) r.update(0, -179, 0, 0, 0.01f);
  CHECK(fabsf(r.roll()) > 178.9f);
}

static void test_gyro_calibration() {
  // Still bar: bias = mean of the window.
  GyroCalibrator c(100, 130, 10);
  bool done = false;
  for (int i = 0; i < 100; ++i) {
    ImuRaw s = {0, 0, 8192, (int16_t)(100 + (i % 5) - 2), (int16_t)(-50 + (i % 3) - 1), 25};
    done = c.add(s);
    CHECK(done == (i == 99));
  }
  CHECK(c.done());
  CHECK(!c.used_moving_window());
  CHECK(c.attempts() == 1);
  CHECK_NEAR(c.bias(0), 100, 0.05);
  CHECK_NEAR(c.bias(1), -50, 0.05);
  CHECK_NEAR(c.bias(2), 25, 1e-6);

  // A window with movement is thrown away; the next still one is used.
  GyroCalibrator m(100, 130, 10);
  for (int i = 0; i < 100; ++i) {
    ImuRaw s = {0, 0, 8192, (int16_t)(i == 50 ? 3000 : 10), 0, 0};
    CHECK(!m.add(s));
  }
  for (int i = 0; i < 100; ++i) m.add(ImuRaw{0, 0, 8192, 10, 0, 0});
  CHECK(m.done());
  CHECK(m.attempts() == 2);
  CHECK_NEAR(m.bias(0), 10, 1e-6);

  // Never still: gives up after max_attempts windows and says so.
  GyroCalibrator n(10, 130, 3);
  int samples = 0;
  while (!n.done() && samples < 1000) {
    n.add(ImuRaw{0, 0, 8192, (int16_t)(samples % 2 ? 500 : -500), 0, 0});
    ++samples;
  }
  CHECK(samples == 30);
  CHECK(n.used_moving_window());
}

static void test_attitude_estimator_on_sim() {
  // The firmware's IMU path on the simulated sensor (with its gyro bias):
  // after calibration it tracks the scripted pitch and roll.
  AttitudeEstimator est(kFilterAlpha, kAccelLsbPerG, kGyroLsbPerDps, kCalibrationSamples,
                        kCalibrationMaxSpreadLsb, kCalibrationMaxAttempts);
  uint16_t rng = 0xACE1;
  float worst_p = 0, worst_r = 0;
  int ready_at = -1;
  for (uint32_t t = 0; t < sim::kSetEndMs + 2000; t += 10) {
    bool ready = est.update(sim::imu(t, &rng), 0.01f);
    if (ready && ready_at < 0) ready_at = (int)t;
    if (ready && t > 2500) {
      worst_p = fmaxf(worst_p, fabsf(est.pitch() - sim::pitch_deg(t)));
      worst_r = fmaxf(worst_r, fabsf(est.roll() - sim::roll_deg(t)));
    }
  }
  CHECK(ready_at == 1000);  // 100 samples at 100 Hz, bar still in the lead-in
  CHECK(!est.calibrator().used_moving_window());
  CHECK_NEAR(est.calibrator().bias(0), sim::kGyroBias[0], 2);
  CHECK_NEAR(est.calibrator().bias(1), sim::kGyroBias[1], 2);
  CHECK(worst_p < 1.5f);
  CHECK(worst_r < 1.5f);
  if (worst_p >= 1.5f || worst_r >= 1.5f) fprintf(stderr, "worst pitch %g roll %g\n", worst_p, worst_r);
}

static void test_sim_trajectory() {
  // Height: top in the lead-in, bottom mid-rep, LIFTBUDDY_SIM_REPS excursions.
  CHECK_NEAR(sim::height_mm(0), 1450, 1e-3);
  CHECK_NEAR(sim::height_mm(sim::kLeadInMs + sim::kDownMs + 100), 850, 1e-3);
  CHECK_NEAR(sim::height_mm(sim::kSetEndMs + 5000), 1450, 1e-3);
  int reps = 0;
  bool low = false;
  float prev = sim::height_mm(0), max_step = 0;
  for (uint32_t t = 0; t < sim::kSetEndMs + 3000; t += 50) {
    float h = sim::height_mm(t);
    max_step = fmaxf(max_step, fabsf(h - prev));
    prev = h;
    if (!low && h < 1000) low = true;
    if (low && h > 1300) {
      low = false;
      ++reps;
    }
  }
  CHECK(reps == sim::kReps);
  // Peak concentric speed π/2·ROM/T = 1.18 m/s: ≤ 59 mm per 50 ms sample.
  CHECK(max_step < 60);
  // The simulated echo converts back to the scripted height within the noise.
  uint16_t rng = 1;
  for (uint32_t t = 0; t < sim::kSetEndMs; t += 37) {
    CHECK_NEAR(echo_us_to_mm(sim::echo_us(t, &rng)), sim::height_mm(t), 3.5);
  }
}

int main() {
  test_line_format();
  test_sonar_conversion();
  test_ping_scheduler_steady_rate();
  test_ping_scheduler_timeout_and_busy();
  test_ping_scheduler_late_polls_and_wrap();
  test_accel_angles();
  test_complementary_filter();
  test_gyro_calibration();
  test_attitude_estimator_on_sim();
  test_sim_trajectory();
  if (g_failures != 0) {
    fprintf(stderr, "host tests: %d of %d checks FAILED\n", g_failures, g_checks);
    return 1;
  }
  printf("host tests: all %d checks passed\n", g_checks);
  return 0;
}
