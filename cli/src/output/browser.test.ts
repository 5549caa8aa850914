// `trace open` opens a browser only where one can be: the platform's opener, and on Linux a display.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserOpener } from "./browser.js";

const FILE = "/tmp/store/reports/run_1.html";
const everywhere = () => true;
const nowhere = () => false;

describe("browserOpener", () => {
  test("Linux with a display and xdg-open: xdg-open the file", () => {
    assert.deepEqual(browserOpener(FILE, "linux", { DISPLAY: ":0" }, everywhere), {
      command: "xdg-open",
      args: [FILE],
    });
    assert.deepEqual(browserOpener(FILE, "linux", { WAYLAND_DISPLAY: "wayland-0" }, everywhere), {
      command: "xdg-open",
      args: [FILE],
    });
  });

  test("Linux without a display (SSH, a container, CI): nothing to open, and why", () => {
    assert.deepEqual(browserOpener(FILE, "linux", { DISPLAY: "", WAYLAND_DISPLAY: "" }, everywhere), {
      reason: "no display (DISPLAY and WAYLAND_DISPLAY are unset)",
    });
    assert.deepEqual(browserOpener(FILE, "freebsd", {}, everywhere), {
      reason: "no display (DISPLAY and WAYLAND_DISPLAY are unset)",
    });
  });

  test("Linux with a display but no xdg-open: nothing to open, and why", () => {
    assert.deepEqual(browserOpener(FILE, "linux", { DISPLAY: ":0" }, nowhere), { reason: "xdg-open is not on PATH" });
  });

  test("macOS: open; Windows: start, through cmd, with an empty window title", () => {
    assert.deepEqual(browserOpener(FILE, "darwin", {}, everywhere), { command: "open", args: [FILE] });
    assert.deepEqual(browserOpener(FILE, "darwin", {}, nowhere), { reason: "the open command is not on PATH" });
    const windows = browserOpener("C:\\r\\run_1.html", "win32", { ComSpec: "C:\\Windows\\system32\\cmd.exe" }, nowhere);
    assert.deepEqual(windows, {
      command: "C:\\Windows\\system32\\cmd.exe",
      args: ["/d", "/s", "/c", 'start "" "C:\\r\\run_1.html"'],
      verbatim: true,
    });
  });
});
