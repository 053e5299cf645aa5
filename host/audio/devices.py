"""Sound devices as PortAudio sees them: `storyhost devices`, and finding the one `--input` names.

sounddevice is imported on first use, not with this module: PortAudio lists the devices once,
when it starts, and the command line should not pay for that unless sound is wanted.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from games.language import N_, _


class AudioDeviceError(RuntimeError):
    """A sound device cannot be used; the message says what to do about it."""


class DeviceNotFound(AudioDeviceError):
    """No device matches what the player asked for."""


NO_DEVICES = N_(
    "PortAudio found no sound devices: connect a microphone or speaker, and on Linux install the "
    "Debian package libasound2-plugins so that PulseAudio or PipeWire devices appear."
)
#: a kind of device, in a sentence: one of it and several (the same gender in each language offered)
KINDS = {"input": (N_("input device"), N_("input devices")), "output": (N_("output device"), N_("output devices"))}


def notice_on_stderr(line: str) -> None:
    """Where sound modules say, by default, what went wrong and what storyhost does instead."""
    print(line, file=sys.stderr)


def portaudio() -> ModuleType:
    """sounddevice, or one sentence saying what to install."""
    try:
        return importlib.import_module("sounddevice")
    except OSError as error:  # the module loads, the PortAudio library does not
        raise AudioDeviceError(
            _("PortAudio is not installed ({error}): install the Debian package libportaudio2.").format(error=error)
        ) from error


@dataclass(frozen=True)
class Device:
    index: int
    name: str
    host_api: str
    inputs: int
    outputs: int
    default_rate: int
    default_input: bool
    default_output: bool

    def line(self, channels: int, default: bool) -> str:
        mark = "  " + _("(default)") if default else ""
        return f"{self.index:>4}  {self.name}  [{self.host_api}, {channels} ch, {self.default_rate} Hz]{mark}"


def list_devices() -> list[Device]:
    sd = portaudio()
    apis = sd.query_hostapis()
    default_in, default_out = sd.default.device
    return [
        Device(
            index=info["index"], name=info["name"], host_api=apis[info["hostapi"]]["name"],
            inputs=info["max_input_channels"], outputs=info["max_output_channels"],
            default_rate=round(info["default_samplerate"]),
            default_input=info["index"] == default_in, default_output=info["index"] == default_out,
        )
        for info in sd.query_devices()
    ]


def find_device(spec: str | int | None, kind: str = "input") -> Device | None:
    """The device `spec` names: its number, or its name or a unique part of it (any case).

    None asks for PortAudio's default device, returned as None.
    """
    if spec is None:
        return None
    devices = [d for d in list_devices() if (d.inputs if kind == "input" else d.outputs) > 0]
    if not devices:
        raise DeviceNotFound(_(NO_DEVICES))
    one, several = (_(words) for words in KINDS[kind])
    if isinstance(spec, int) or spec.strip().isdecimal():
        number = int(spec)
        for device in devices:
            if device.index == number:
                return device
        raise DeviceNotFound(_("There is no {device} number {number}: run 'storyhost devices' to list them.").format(
            device=one, number=number))
    wanted = spec.strip().casefold()
    exact = [d for d in devices if d.name.casefold() == wanted]
    matches = exact or [d for d in devices if wanted in d.name.casefold()]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise DeviceNotFound(_("No {device} is called '{name}': run 'storyhost devices' to list them.").format(
            device=one, name=spec))
    names = _(", ").join(f"{d.index} ({d.name})" for d in matches)
    raise DeviceNotFound(_("'{name}' matches several {devices}: {matches}; give its number instead.").format(
        name=spec, devices=several, matches=names))


def main(argv: list[str]) -> int:
    """`storyhost devices`: one line per input and output device; 1 when there are none."""
    try:
        argparse.ArgumentParser(
            prog="storyhost devices",
            description=_("List the microphones and speakers storyhost can use (for --input)."),
        ).parse_args(argv)
    except SystemExit as done:  # --help, or a usage error already printed
        return int(done.code or 0)
    try:
        devices = list_devices()
    except AudioDeviceError as error:
        print(error, file=sys.stderr)
        return 2
    if not devices:
        print(_(NO_DEVICES), file=sys.stderr)
        return 1
    sections: tuple[tuple[str, Callable[[Device], int], Callable[[Device], bool]], ...] = (
        (_("Input devices (microphones):"), lambda d: d.inputs, lambda d: d.default_input),
        (_("Output devices (speakers):"), lambda d: d.outputs, lambda d: d.default_output),
    )
    for title, channels, default in sections:
        print(title)
        listed = [d.line(channels(d), default(d)) for d in devices if channels(d) > 0]
        print("\n".join(listed) if listed else "   " + _("none"))
    return 0
