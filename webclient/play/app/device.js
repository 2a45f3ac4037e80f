// This browser's device identity and how the last session was opened, in localStorage.
//
// The device id (a lower-case UUID) and secret (32 random bytes, base64url: 43 characters)
// are made here and never leave the browser except to sign in: the server keeps only a
// hash of the secret. The mode says what a reload does: "device" signs the device's account
// in again (no form before the first card), "named" and "signed-out" show the sign-in form
// (a named player's password is never stored).

const DEVICE_KEY = "haven.device";
const MODE_KEY = "haven.session";

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage off (private mode): a guest for this page's life
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // storage off: nothing to keep
  }
}

function base64url(bytes) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function newDevice() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { id, secret: base64url(crypto.getRandomValues(new Uint8Array(32))) };
}

let memory = null; // the device when storage is off

export function device(create = true) {
  if (memory) return memory;
  try {
    const stored = JSON.parse(read(DEVICE_KEY) || "null");
    if (stored && stored.id && stored.secret) return (memory = stored);
  } catch {
    // a damaged entry: a new device
  }
  if (!create) return null;
  memory = newDevice();
  write(DEVICE_KEY, JSON.stringify(memory));
  return memory;
}

export function forgetDevice() {
  memory = null;
  write(DEVICE_KEY, null);
}

export function sessionMode() {
  return read(MODE_KEY);
}

export function setSessionMode(mode) {
  write(MODE_KEY, mode);
}
