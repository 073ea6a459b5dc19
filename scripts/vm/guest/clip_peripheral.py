#!/usr/bin/env python3
"""An emulated LiftBuddy clip on a virtual LE controller (Bumble, HCI user channel).

Advertises like the clip, serves one of the UART services the clip's BLE
modules have (Nordic UART, HM-10 FFE0, RedBearLab BLE Mini), and once a
central subscribes, sends a recorded stream's lines at their recorded pace
(the rows' times) in 20-byte notifications, as a module with the default
ATT MTU does. Each notification's CLOCK_MONOTONIC send time is logged, for the
latency figure in BENCHMARKS.md.

  clip_peripheral.py --hci 1 --variant nus --stream FILE --log LOG
      [--drop-after-lines N --away-s S]   # drop the link mid-set, come back

--drop-after-lines disconnects after N lines and stays silent (no
advertising, so a central cannot reconnect) for S seconds, as a clip out of
range or with its battery swapped; then it advertises again and continues
from the next line when a central subscribes again, at the recorded pace from
that moment (the set paused while the link was down, so the stream's clock
restarts at the new subscription: no backlog is sent in a burst). The LOG
(JSON lines) says "advertising", "subscribed", "dropped" (with the file time
of the last row sent), "done" with times, and every notification.

Advertising restarts after every disconnection but the drop's own: this
script restarts it itself rather than with Bumble's auto_restart, which
would advertise again the moment the drop disconnects and let the central
back in while the clip is meant to be away.
"""
import argparse
import asyncio
import json
import signal
import sys
import time

from bumble.core import UUID, AdvertisingData
from bumble.device import Device
from bumble.gatt import Characteristic, Service
from bumble.hci import Address
from bumble.transport import open_transport

VARIANTS = {
    # name: (advertised name, service, notifying characteristic, write characteristic)
    "nus": ("LiftBuddy", "6E400001-B5A3-F393-E0A9-E50E24DCCA9E",
            "6E400003-B5A3-F393-E0A9-E50E24DCCA9E", "6E400002-B5A3-F393-E0A9-E50E24DCCA9E"),
    # The HM-10 has one characteristic, FFE1, for both directions.
    "hm10": ("HMSoft", "FFE0", "FFE1", None),
    "redbear": ("BLE Mini", "713D0000-503E-4C75-BA94-3148F18D941E",
                "713D0002-503E-4C75-BA94-3148F18D941E", "713D0003-503E-4C75-BA94-3148F18D941E"),
}


def recorded_lines(path):
    """(t, line) for every data row of a recorded stream."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for row in f:
            row = row.rstrip("\n")
            if not row or row.startswith("#"):
                continue
            t, _, line = row.partition(" ")
            rows.append((float(t), line))
    return rows


class Clip:
    def __init__(self, args, log):
        self.args = args
        self.log = log
        self.rows = recorded_lines(args.stream)
        self.next_row = 0
        self.subscribed = asyncio.Event()
        # Bumped at every new subscription: the stream's clock restarts there.
        self.subscriptions = 0
        self.dropped_once = False
        # True while the drop keeps the clip away (not advertising).
        self.away = False

    def note(self, event, **fields):
        fields.update(event=event, mono=time.monotonic())
        self.log.write(json.dumps(fields) + "\n")
        self.log.flush()

    async def run(self):
        name, service_uuid, tx_uuid, rx_uuid = VARIANTS[self.args.variant]
        props = Characteristic.Properties
        tx_props = props.NOTIFY | props.READ
        if rx_uuid is None:
            tx_props |= props.WRITE_WITHOUT_RESPONSE | props.WRITE
        self.tx = Characteristic(UUID(tx_uuid), tx_props,
                                 Characteristic.READABLE | Characteristic.WRITEABLE, b"")
        characteristics = [self.tx]
        if rx_uuid is not None:
            characteristics.append(Characteristic(
                UUID(rx_uuid), props.WRITE | props.WRITE_WITHOUT_RESPONSE,
                Characteristic.WRITEABLE, b""))
        self.tx.on("subscription", self.on_subscription)

        async with await open_transport(f"hci-socket:{self.args.hci}") as (source, sink):
            self.device = Device.with_hci(name, Address(self.args.address), source, sink)
            self.device.add_service(Service(UUID(service_uuid), characteristics))
            uuid_bytes = bytes(UUID(service_uuid).to_bytes())
            kind = (AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS if len(uuid_bytes) == 2
                    else AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS)
            self.device.advertising_data = bytes(AdvertisingData([
                (AdvertisingData.FLAGS, bytes([0x06])), (kind, uuid_bytes)]))
            self.device.scan_response_data = bytes(AdvertisingData([
                (AdvertisingData.COMPLETE_LOCAL_NAME, name.encode())]))
            self.device.on("disconnection", self.on_disconnection)
            await self.device.power_on()
            try:
                await self.advertise()
                await self.stream()
                self.note("done", lines=self.next_row)
                # Stay connected so the central sees the end of the set as a rest.
                await asyncio.sleep(self.args.linger_s)
            finally:
                await self.leave()

    async def leave(self):
        """Ends every link before the controller is let go (SIGTERM).

        A real clip switched off is noticed by the central's controller
        when the link's supervision timeout runs out. btvirt has no
        supervision timeout: when the process holding hci1 closes it, hci1
        is reset without a word to hci0, and the kernel's later Disconnect
        on hci0 is answered with a Disconnection Complete for handle 0,
        status Unknown Connection Identifier (seen in btmon). The kernel
        then keeps that link to the clip's address for good, and every
        later connection to the address waits on it and times out without
        one HCI command. So the emulated clip says goodbye first."""
        self.away = True
        for connection in list(self.device.connections.values()):
            try:
                await asyncio.wait_for(connection.disconnect(), 5)
            except Exception as error:  # already gone, or the controller did not answer
                self.note("leave-failed", error=str(error))
        self.note("left")

    async def advertise(self):
        await self.device.start_advertising(auto_restart=False)
        self.note("advertising", address=self.args.address, variant=self.args.variant)

    def on_disconnection(self, *_):
        self.subscribed.clear()
        self.note("disconnected")
        if not self.away:  # the central left (a stop, a restart): be found again
            asyncio.get_running_loop().create_task(self.advertise())

    def on_subscription(self, _bearer, notify, indicate):
        if notify or indicate:
            self.note("subscribed")
            self.subscriptions += 1
            self.subscribed.set()
        else:
            self.subscribed.clear()

    async def stream(self):
        """Sends the rows at their recorded pace from the first subscription on;
        a drop pauses the clock, so the set resumes where it was."""
        pending = b""
        origin = None
        clock_of = 0  # the subscription the clock was started at
        while self.next_row < len(self.rows):
            if not self.subscribed.is_set():
                await self.subscribed.wait()
            if clock_of != self.subscriptions:
                clock_of = self.subscriptions
                origin = time.monotonic() - self.rows[self.next_row][0]
                pending = b""
            t, line = self.rows[self.next_row]
            delay = origin + t - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            # Rows with the same receive time (a BLE burst) go out together.
            pending += (line + "\n").encode()
            self.next_row += 1
            if self.next_row < len(self.rows) and self.rows[self.next_row][0] == t:
                continue
            while pending:
                chunk, pending = pending[:20], pending[20:]
                await self.device.notify_subscribers(self.tx, chunk)
                self.note("notify", n=len(chunk), row=self.next_row)
            if (self.args.drop_after_lines and not self.dropped_once
                    and self.next_row >= self.args.drop_after_lines):
                await self.drop()

    async def drop(self):
        """Goes away for --away-s (out of range, battery swapped), then comes back."""
        self.dropped_once = True
        self.away = True
        for connection in list(self.device.connections.values()):
            await connection.disconnect()
        self.subscribed.clear()
        self.note("dropped", row=self.next_row, t=self.rows[self.next_row - 1][0])
        await asyncio.sleep(self.args.away_s)
        self.away = False
        await self.advertise()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hci", type=int, required=True)
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="nus")
    parser.add_argument("--address", default="F0:11:22:33:44:55")
    parser.add_argument("--stream", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--drop-after-lines", type=int, default=0)
    parser.add_argument("--away-s", type=float, default=3.0)
    parser.add_argument("--linger-s", type=float, default=3600.0)
    args = parser.parse_args()
    with open(args.log, "a", encoding="utf-8") as log:
        asyncio.run(run_until_terminated(Clip(args, log)))


async def run_until_terminated(clip):
    """SIGTERM (run.sh's stop_peripheral) cancels the clip, which then
    disconnects its central before it exits."""
    task = asyncio.ensure_future(clip.run())
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        await task
    except asyncio.CancelledError:
        pass


if __name__ == "__main__":
    sys.exit(main())
