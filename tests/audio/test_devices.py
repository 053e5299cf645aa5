"""`storyhost devices` and finding the device --input names, with PulseAudio's devices present, in
the active language."""
from __future__ import annotations

import pytest

from games.language import speaking
from host.audio.devices import DeviceNotFound, find_device, list_devices, main
from host.storage.catalogs import translations
from tests.audio.pulse import PORTAUDIO_DEVICE


def test_the_pulse_device_is_listed_for_input_and_output(pulse, capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    inputs, outputs = out.split("Output devices")
    assert inputs.startswith("Input devices") and PORTAUDIO_DEVICE in inputs
    assert PORTAUDIO_DEVICE in outputs
    line = next(line for line in inputs.splitlines() if f"  {PORTAUDIO_DEVICE}  " in line)
    device = next(d for d in list_devices() if d.name == PORTAUDIO_DEVICE)
    assert line.split()[0] == str(device.index) and "44100 Hz" in line


def test_a_device_is_found_by_number_or_by_a_part_of_its_name_in_any_case(pulse):
    device = find_device("PULSE", "input")
    assert device is not None and device.name == PORTAUDIO_DEVICE and device.inputs > 0
    assert find_device(str(device.index), "output") == device
    assert find_device(None) is None
    with pytest.raises(DeviceNotFound, match="No input device is called 'tuba'"):
        find_device("tuba")


def test_without_any_sound_device_the_listing_says_what_to_install(without_devices):
    done = without_devices("import sys; from host.audio.devices import main; sys.exit(main([]))")
    assert done.returncode == 1
    assert "found no sound devices" in done.stderr and "libasound2-plugins" in done.stderr


def test_without_any_microphone_opening_one_says_what_to_do(without_devices):
    done = without_devices("from host.audio.sources import MicrophoneSource; MicrophoneSource()")
    assert "AudioDeviceError: There is no microphone to open" in done.stderr
    assert "storyhost devices" in done.stderr


def test_without_any_microphone_opening_one_says_what_to_do_in_the_active_language(without_devices):
    done = without_devices("from games.language import use; from host.storage.catalogs import translations;"
                           " use(translations('ca')); from host.audio.sources import MicrophoneSource; MicrophoneSource()")
    assert "AudioDeviceError: No hi ha cap micròfon per obrir (" in done.stderr
    assert "executa 'storyhost devices' per veure'ls." in done.stderr


def test_the_listing_and_a_device_not_found_are_in_the_active_language(pulse, capsys):
    with speaking(translations("es")):
        assert main([]) == 0
        with pytest.raises(DeviceNotFound) as unknown:
            find_device("tuba")
        with pytest.raises(DeviceNotFound) as numbered:
            find_device("999", "output")
    out = capsys.readouterr().out
    assert out.startswith("Dispositivos de entrada (micrófonos):\n") and "\nDispositivos de salida (altavoces):\n" in out
    assert str(unknown.value) == "Ningún dispositivo de entrada se llama 'tuba': ejecuta 'storyhost devices' para verlos."
    assert str(numbered.value) == ("No hay ningún dispositivo de salida con el número 999: ejecuta 'storyhost devices' "
                                   "para verlos.")


def test_without_any_sound_device_the_listing_says_so_in_the_active_language(without_devices):
    done = without_devices("import sys; from games.language import use; from host.storage.catalogs import translations;"
                           " use(translations('de')); from host.audio.devices import main; sys.exit(main([]))")
    assert done.returncode == 1
    assert done.stderr.startswith("PortAudio hat keine Audiogeräte gefunden: ") and "libasound2-plugins" in done.stderr
