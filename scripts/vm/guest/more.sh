# The full run's scenarios beyond the smoke set; sourced by run.sh (its
# helpers and variables), only with VM_SCENARIOS=all.

# --- BLE: ble:hci0/ADDRESS, HM-10, the link dropped mid-set and back ----------
EXERCISE=bench_press
LOAD=70
hm10_up=0
if start_peripheral hm10 --drop-after-lines 575 --away-s 3; then
  hm10_up=1
  pass "emulated clip advertises (HM-10 FFE0)"
else
  fail "emulated clip advertises (HM-10 FFE0)" "no advertising"
fi
rm -f /etc/systemd/system/liftbuddyd.service.d/ble-scan.conf # an address needs no capability
systemctl daemon-reload
configure "ble:hci0/$PERIPHERAL_ADDRESS/random"
t2="$(date +%s)"
fresh_start
if [ "$hm10_up" = 1 ] && peripheral_reached dropped hm10; then
  check "link dropped mid-set: the set is closed and written" wait_for 30 report_written
  check "the link came back: the daemon reconnected by itself" \
    wait_for 90 bash -c "[ \$(journalctl -u liftbuddyd --since @$t2 -o cat | grep -c 'connected.*via hci0 (.*HM-10') -ge 2 ]"
else
  fail "link dropped mid-set: the set is closed and written" "the peripheral never dropped: $(journal_since "$t2" | tail -3 | tr '\n' ' ')"
fi
[ "$hm10_up" = 1 ] && peripheral_reached done hm10
systemctl stop liftbuddyd
# The file time of the last row the clip sent before it went away.
drop_t="$(python3 -c 'import json,sys; print(next(e["t"] for e in map(json.loads, open(sys.argv[1])) if e["event"] == "dropped"))' \
  "$X/guest/peripheral-hm10.log" 2>/dev/null)"
check "ble:hci0/ADDRESS: a report closed at the drop and one after it hold analyze's reps" \
  python3 "$G/compare_reports.py" "$X/guest/analyze-ble.jsonl" "$LIFTS" --split-at-s "${drop_t:-0}"
stop_peripheral

# --- BLE: RedBearLab BLE Mini, liftbuddy scan and record as a user would ------
start_peripheral redbear --linger-s 600
check "liftbuddy scan lists the clip (RedBearLab BLE Mini)" \
  bash -c "liftbuddy scan --seconds 4 2>&1 | tee $X/guest/scan.txt | grep -q 'ble:$PERIPHERAL_ADDRESS/random.*BLE Mini'"
check "liftbuddy record over BLE (RedBearLab) gets the clip's lines" bash -c "
  liftbuddy record --source ble:$PERIPHERAL_ADDRESS/random --output /tmp/rb.lbs --duration 15 >$X/guest/record.txt 2>&1;
  cp /tmp/rb.lbs $X/guest/; [ \$(grep -c ' s:' /tmp/rb.lbs) -ge 20 ]"
stop_peripheral

# --- USB serial and udev ------------------------------------------------------
EXERCISE=squat
LOAD=100
liftbuddy analyze "$SERIAL_STREAM" >"$X/guest/analyze-serial.jsonl"
check "udev rule names qemu's FTDI adapter /dev/liftbuddy-clip" wait_for 30 test -e /dev/liftbuddy-clip
check "liftbuddy scan --serial lists it" bash -c "liftbuddy scan --serial | grep -q serial:"
configure serial:auto
t3="$(date +%s)"
fresh_start
check "serial:auto: the service opened the clip" \
  wait_for 60 bash -c "journalctl -u liftbuddyd --since @$t3 -o cat | grep -q 'serial:auto: connected'"
host feed "$SERIAL_STREAM" 0 1363
host unplug
check "unplugged mid-set: the set is closed and written" wait_for 30 report_written
check "udev removed /dev/liftbuddy-clip" wait_for 30 test ! -e /dev/liftbuddy-clip
host replug
check "re-plugged: the symlink is back and reading resumes" \
  wait_for 60 bash -c "test -e /dev/liftbuddy-clip && [ \$(journalctl -u liftbuddyd --since @$t3 -o cat | grep -c 'serial:auto: connected') -ge 2 ]"
host feed "$SERIAL_STREAM" 1363 end
systemctl stop liftbuddyd
check "serial reports (split by the unplug) hold analyze's reps" \
  python3 "$G/compare_reports.py" "$X/guest/analyze-serial.jsonl" "$LIFTS"
