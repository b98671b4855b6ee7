import { requirePackage, SYSTEM_PACKAGES } from './debian.js';

// The browser tests drive the system's Chromium (Debian's package), installed beforehand (test/helpers/debian.ts).

export const CHROMIUM = SYSTEM_PACKAGES.chromium.path;

/** The path of Chromium; when it is missing, an error naming the command that installs it. */
export const ensureChromium = (path: string = CHROMIUM, exists?: (path: string) => boolean): string => requirePackage('chromium', path, exists);
