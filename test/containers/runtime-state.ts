import { getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';

/** What a set of containers holds in the runtime: their ids, the networks they are on and their volumes. */
export interface Footprint {
  containers: string[];
  networks: string[];
  volumes: string[];
}

async function dockerode() {
  return (await getContainerRuntimeClient()).container.dockerode;
}

/** The containers on `network`, with their named and anonymous volumes. */
export async function footprintOfNetwork(network: string): Promise<Footprint> {
  const docker = await dockerode();
  const containers = await docker.listContainers({ all: true, filters: { network: [network] } });
  const volumes = containers.flatMap((container) =>
    (container.Mounts ?? []).flatMap((mount) => (mount.Type === 'volume' && mount.Name ? [mount.Name] : [])),
  );
  return { containers: containers.map((container) => container.Id), networks: [network], volumes };
}

/** The container `started` runs in, and the network it joined. */
export function networkOf(started: StartedTestContainer): string {
  const [network] = started.getNetworkNames();
  if (network === undefined) throw new Error(`container ${started.getId()} is on no network`);
  return network;
}

/** Which of `footprint` the runtime still has. */
export async function leftOf(footprint: Footprint): Promise<Footprint> {
  const docker = await dockerode();
  const [containers, networks, volumes] = await Promise.all([
    docker.listContainers({ all: true }),
    docker.listNetworks(),
    docker.listVolumes(),
  ]);
  const containerIds = new Set(containers.map((container) => container.Id));
  const networkNames = new Set(networks.map((network) => network.Name));
  const volumeNames = new Set((volumes.Volumes ?? []).map((volume) => volume.Name));
  return {
    containers: footprint.containers.filter((id) => containerIds.has(id)),
    networks: footprint.networks.filter((name) => networkNames.has(name)),
    volumes: footprint.volumes.filter((name) => volumeNames.has(name)),
  };
}
