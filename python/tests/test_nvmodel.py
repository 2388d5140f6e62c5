"""The Python binding (issue 22 item 5): each test checks what the C API
does, seen through the binding, including the errors."""
import os
import re
import struct
import sys

import pytest

import nvmodel

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))
import volta_channel  # noqa: E402  (the example is also a test)


def cmake_version():
    with open(os.path.join(HERE, "..", "..", "CMakeLists.txt")) as f:
        return re.search(r"project\(\s*nvmodel\s+VERSION\s+([0-9.]+)", f.read()).group(1)


def test_version_is_the_projects():
    assert nvmodel.version() == cmake_version()


def test_chips():
    names = {c.name: c for c in nvmodel.chips()}
    for n in ("nv01", "nv04", "g84", "gv100", "tu102", "ga100", "gh100"):
        assert n in names
    assert names["gv100"].family == "GV100"


def test_unknown_chip_raises_with_status():
    with pytest.raises(nvmodel.NvmError) as e:
        nvmodel.Gpu("gx9000")
    assert e.value.status == nvmodel.ERR_CHIP
    assert e.value.status_name == "unknown chip"


def test_registers():
    with nvmodel.Gpu("gv100") as g:
        boot0 = {c.name: c.boot_0 for c in nvmodel.chips()}["gv100"]
        assert g.read_reg(0) == boot0
        assert g.reg_name(0) is not None
        with pytest.raises(nvmodel.NvmError) as e:
            g.read_reg(2)
        assert e.value.status == nvmodel.ERR_ALIGN
        with pytest.raises(OverflowError):
            g.read_reg(1 << 40)
        with pytest.raises(OverflowError):
            g.read("vram", -4, 4)


def test_memory_and_errors():
    with nvmodel.Gpu("gv100", vram_size=1 << 20) as g:
        g.write("vram", 0x1000, b"\x01\x02\x03\x04")
        assert g.read("vram", 0x1000, 4) == b"\x01\x02\x03\x04"
        g.wr32("vram", 0x2000, 0xDEADBEEF)
        assert g.rd32("vram", 0x2000) == 0xDEADBEEF
        assert g.mem_size("vram") == 1 << 20
        with pytest.raises(nvmodel.NvmError) as e:
            g.read("vram", (1 << 20) - 2, 4)
        assert e.value.status == nvmodel.ERR_RANGE
        with pytest.raises(ValueError):
            g.read("hbm", 0, 4)


def test_map_is_zero_copy_both_ways():
    with nvmodel.Gpu("gv100") as g:
        buf = bytearray(64 * 1024)
        view = g.map("sysmem", 0x10000, buf)
        g.wr32("sysmem", 0x10010, 0x12345678)
        assert struct.unpack_from("<I", buf, 0x10)[0] == 0x12345678
        struct.pack_into("<I", buf, 0x20, 0xCAFEF00D)
        assert g.rd32("sysmem", 0x10020) == 0xCAFEF00D
        assert view[0x20] == 0x0D
        assert g.mem_pages("sysmem") == 0
        # The binding holds the buffer: Python cannot resize it under the model.
        with pytest.raises(BufferError):
            buf.extend(b"x")
        g.unmap("sysmem", 0x10000)
        assert g.rd32("sysmem", 0x10020) == 0
        view.release()
        buf.extend(b"x")  # released by the model too


def test_map_errors():
    with nvmodel.Gpu("gv100") as g:
        with pytest.raises(nvmodel.NvmError) as e:
            g.map("sysmem", 0x800, bytearray(4096))
        assert e.value.status == nvmodel.ERR_ALIGN
        with pytest.raises(BufferError):
            g.map("sysmem", 0, b"\x00" * 4096)  # read-only
        g.map_new("sysmem", 0, 8192)
        with pytest.raises(nvmodel.NvmError):
            g.map("sysmem", 4096, bytearray(4096))  # overlaps
        with pytest.raises(nvmodel.NvmError) as e:
            g.unmap("sysmem", 0x100000)
        assert e.value.status == nvmodel.ERR_NOENT


def test_closed_gpu():
    g = nvmodel.Gpu("gv100")
    with g:
        pass
    with pytest.raises(ValueError):
        g.read_reg(0)
    g.close()  # twice is fine


def test_events_reach_python():
    with nvmodel.Gpu("gv100") as g:
        seen = []
        hid = g.on("unmodelled", seen.append)
        g.write_reg(0x1FFFF0, 1)  # no register there
        assert seen and isinstance(seen[0], nvmodel.Event)
        assert seen[0].type == "unmodelled" and seen[0].addr == 0x1FFFF0
        assert g.events("unmodelled") >= 1
        g.off(hid)
        n = len(seen)
        g.write_reg(0x1FFFF0, 1)
        assert len(seen) == n
        with pytest.raises(ValueError):
            g.on("nonsense", seen.append)


def _channel(gpu):
    drv = volta_channel.Driver(gpu)
    ch = volta_channel.Channel(drv, chid=3)
    ch.submit_runlist()
    assert gpu.run(100_000) == "idle"
    return drv, ch


def test_hook_exception_stops_run_and_is_raised():
    with nvmodel.Gpu("gv100", vram_size=64 << 20) as g:
        drv, ch = _channel(g)

        def boom(ev):
            raise KeyError("from the hook")

        g.on("method", boom)
        ch.push(volta_channel.inc(1, 0, 0xC397) + volta_channel.inc(1, 0x200, 1, 2, 3))
        with pytest.raises(KeyError):
            g.run(1_000_000)
        assert g.method_total("gr") >= 1


def test_hook_may_not_run_and_may_close():
    with nvmodel.Gpu("gv100", vram_size=64 << 20) as g:
        drv, ch = _channel(g)
        errors = []

        def reenter(ev):
            try:
                g.run(10)
            except nvmodel.NvmError as e:
                errors.append(e.status)
            g.close()

        g.on("method", reenter)
        ch.push(volta_channel.inc(1, 0, 0xC397) + volta_channel.inc(1, 0x200, 1, 2, 3))
        g.run(1_000_000)
        assert errors and errors[0] == nvmodel.ERR_BUSY
        with pytest.raises(ValueError):
            g.read_reg(0)


def test_method_log_and_semaphores_in_python_memory():
    assert volta_channel.main() == 0


def test_method_log_records():
    with nvmodel.Gpu("gv100", vram_size=64 << 20) as g:
        drv, ch = _channel(g)
        ch.push(volta_channel.inc(1, 0, 0xC397) + volta_channel.inc(1, 0x200, 7, 8))
        assert g.run(1_000_000) == "idle"
        log = g.method_log("gr")
        assert [(m.chid, m.subch, m.cls, m.method, m.data) for m in log] == [
            (3, 1, 0xC397, 0x200, 7),
            (3, 1, 0xC397, 0x204, 8),
        ]
        assert g.method_total("gr") == 2
        g.method_log_clear("gr")
        assert g.method_log("gr") == []
        with pytest.raises(nvmodel.NvmError) as e:
            g.method_log("no-such-engine")
        assert e.value.status == nvmodel.ERR_NOENT


def test_pushbuffer_asm_and_decode_round_trip():
    text = "inc 0 C36F.SEM_ADDR_LO 0x1000 0x0 0x2a 0x0 0x1\nimmd 1 0x200 3\n"
    words = nvmodel.pb_asm(text)
    assert len(words) == 4 * 7
    assert struct.unpack_from("<I", words, 0)[0] == 0x20050017
    again = nvmodel.pb_asm(nvmodel.pb_decode(words, style="asm"))
    assert again == words
    assert "SEM_ADDR_LO" in nvmodel.pb_decode(words)
    json_lines = nvmodel.pb_decode(words, style="json").splitlines()
    assert all(line.startswith("{") for line in json_lines)
    with pytest.raises(nvmodel.NvmError):
        nvmodel.pb_asm("inc 0 NO_SUCH_METHOD 1")
    with pytest.raises(ValueError):
        nvmodel.pb_decode(b"\x00\x00\x00", style="text")
    with pytest.raises(ValueError):
        nvmodel.pb_decode(words, style="yaml")
    old = nvmodel.pb_asm("inc 1 0x100 5", chip="nv40")
    assert "0x100" in nvmodel.pb_decode(old, chip="nv40").lower() or "0100" in nvmodel.pb_decode(old, chip="nv40")


class GuestRam:
    """An emulator's guest RAM behind its own memory API."""

    def __init__(self, base, size):
        self.base, self.mem, self.calls = base, bytearray(size), 0
        self.fail_at = None

    def read(self, addr, n):
        self.calls += 1
        if self.fail_at is not None and addr <= self.fail_at < addr + n:
            raise RuntimeError("guest RAM read failed")
        o = addr - self.base
        return bytes(self.mem[o : o + n])

    def write(self, addr, data):
        self.calls += 1
        o = addr - self.base
        self.mem[o : o + len(data)] = data


def test_map_io_channel_semaphore_through_callbacks():
    with nvmodel.Gpu("gv100", vram_size=64 << 20) as g:
        drv, ch = _channel(g)
        ram = GuestRam(0x200000, 0x10000)
        g.map_io("sysmem", 0x200000, 0x10000, ram.read, ram.write)
        va = drv.map_sys(0x200000)
        ch.push(volta_channel.semaphore(va + 0x40, 0x5EED, 1))
        assert g.run(1_000_000) == "idle"
        assert struct.unpack_from("<I", ram.mem, 0x40)[0] == 0x5EED
        assert ram.calls >= 1
        assert g.rd32("sysmem", 0x200040) == 0x5EED  # the library reads through read()
        with pytest.raises(nvmodel.NvmError) as e:
            g.map_io("sysmem", 0x208000, 0x1000, ram.read, ram.write)  # overlaps
        assert e.value.status == nvmodel.ERR_ARG
        with pytest.raises(TypeError):
            g.map_io("sysmem", 0x300000, 0x1000, None, ram.write)


def test_map_io_exceptions_reach_the_caller():
    with nvmodel.Gpu("gv100") as g:
        ram = GuestRam(0, 0x2000)
        g.map_io("sysmem", 0, 0x2000, ram.read, ram.write)
        ram.fail_at = 0x1000
        with pytest.raises(RuntimeError, match="guest RAM read failed"):
            g.read("sysmem", 0xFF0, 0x20)
        ram.fail_at = None
        assert g.read("sysmem", 0xFF0, 0x20) == bytes(0x20)
        g.map_io("sysmem", 0x4000, 0x1000, lambda a, n: b"short", ram.write)
        with pytest.raises(ValueError, match="returned 5 bytes"):
            g.rd32("sysmem", 0x4000)
        g.unmap("sysmem", 0x4000)
        assert g.rd32("sysmem", 0x4000) == 0


def test_hook_closing_during_a_plain_call():
    """A hook that closes the GPU during a register write or memory write:
    the library still delivers that call's other events to the hooks, so
    the binding frees them only after (on the next call, or run's end)."""
    for call in (lambda g: g.write_reg(0x1FFFF0, 1), lambda g: g.write_reg(0x2270, 0)):
        g = nvmodel.Gpu("gv100")
        seen = []

        def close(ev):
            seen.append(ev.type)
            g.close()

        g.on("all", close)
        g.on("all", seen.append)  # a second hook, called after the close
        call(g)
        assert seen
        with pytest.raises(ValueError):
            g.read_reg(0)
        g.close()
