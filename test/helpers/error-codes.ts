import type { AnyTool } from '../../domains/tool.js';
import { HAZARD_ERRORS } from '../../hazards/errors.js';
import { type CatalogEntry, statusesOf } from '../../lib/error-catalog.js';
import { SERVER_ERRORS } from '../../server/core/error-codes.js';

/**
 * Why a tool's refusal is not one its declarations allow, or undefined when it is: the code must be one the
 * tool declares, one the server answers any call with, or (with `hazards`) one of the hazards' group, and its
 * status one the catalog gives it.
 */
export function undeclaredRefusal(tool: AnyTool, status: number, code: unknown, { hazards = true } = {}): string | undefined {
  if (status < 400) return undefined;
  if (typeof code !== 'string') return `${tool.name} answered ${status} without a code`;
  const allowed: CatalogEntry[] = [...tool.errors, ...Object.values(SERVER_ERRORS), ...(hazards ? Object.values(HAZARD_ERRORS) : [])];
  const entries = allowed.filter((entry) => entry.code === code);
  if (entries.length === 0) return `${tool.name} answered ${code}, which it does not declare (errors: ${tool.errors.map((e) => e.code).join(', ')})`;
  if (!entries.some((entry) => statusesOf(entry).includes(status))) return `${tool.name} answered ${code} with ${status}, not a status of its catalog entry`;
  return undefined;
}
