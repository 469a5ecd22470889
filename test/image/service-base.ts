import { DEBIAN_BASE_IMAGE, ensureDebianBase } from './debian-base.js';
import { findPodmanOptions, type Podman } from './podman.js';
import type { Results } from './results.js';
import { ensureStandIn, NODE_STAND_IN } from './stand-ins.js';

/** How podman runs here, and the base the service image is built on. */
export interface ServiceBase {
  p: Podman;
  baseImage: string;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The base image given in NODE_IMAGE, else the local stand-in for node:20-bookworm-slim on the
 * Debian base (each built once and kept), with the podman options that run containers here; one
 * line each. Undefined when one of them cannot be had.
 */
export async function prepareServiceBase(results: Results, logFile: string): Promise<ServiceBase | undefined> {
  const given = process.env.NODE_IMAGE;
  const probeImage = given !== undefined && given !== '' ? given : DEBIAN_BASE_IMAGE;
  if (probeImage === DEBIAN_BASE_IMAGE) {
    try {
      results.ok(`Debian base: ${await ensureDebianBase([], logFile)}`);
    } catch (error) {
      results.fail('Debian base', `${reason(error)} (log: ${logFile})`);
      return undefined;
    }
  } else {
    results.ok(`base image: ${given} (NODE_IMAGE)`);
  }
  const found = await findPodmanOptions(probeImage);
  if ('failures' in found) {
    results.fail('podman runs containers here', `every way tried failed:\n  ${found.failures.join('\n  ')}`);
    return undefined;
  }
  results.ok(`podman runs containers here (${found.described})`);
  if (probeImage !== DEBIAN_BASE_IMAGE) return { p: found, baseImage: probeImage };
  try {
    results.ok(`base image: ${await ensureStandIn(found, NODE_STAND_IN, logFile)}`);
  } catch (error) {
    results.fail('base image', `${reason(error)} (log: ${logFile})`);
    return undefined;
  }
  return { p: found, baseImage: NODE_STAND_IN.image };
}
