import { readFileSync } from 'node:fs';
import { assetUrl } from '../../lib/assets.js';

/** The package version, read once. */
export const VERSION: string = (JSON.parse(readFileSync(assetUrl('package.json'), 'utf8')) as { version: string }).version;
