import { existsSync, readFileSync } from 'node:fs';

/**
 * The folder wildtools runs from: the checkout, or `dist/` when compiled (the build copies package.json
 * there), found by walking up from this module to the package.json named wildtools. Files the server reads
 * at run time (databases, policies, tasks) are named from it, so that they are found the same way
 * whether the code runs from sources, from `dist/` file by file, or bundled into one file.
 */
function packageRoot(): URL {
  for (let folder = new URL('./', import.meta.url); ; folder = new URL('../', folder)) {
    const manifest = new URL('package.json', folder);
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'wildtools') return folder;
    if (folder.pathname === '/') throw new Error(`no package.json of wildtools above ${import.meta.url}`);
  }
}

const root = packageRoot();

/** A file shipped with wildtools, by its path from the package root (`fixtures/retail.json`). */
export const assetUrl = (path: string): URL => new URL(path, root);
