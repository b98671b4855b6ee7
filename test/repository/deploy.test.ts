import { readFileSync } from 'node:fs';
import t from 'tap';
import { parse, parseAllDocuments } from 'yaml';
import { renderSite } from '../../deploy/nginx.js';

// The deployment files describe one cluster: the replicas nginx hashes over are those every replica lists in
// CLUSTER_PEERS, in the same order, each replica has a volume of its own, and the Kubernetes objects name
// each other as they must.

const read = (path: string) => readFileSync(new URL(`../../deploy/${path}`, import.meta.url), 'utf8');
const site = read('nginx/wildtools.conf');

/** The servers of an upstream block, in order. */
function upstream(name: string): string[] {
  const block = new RegExp(`upstream ${name} \\{([^}]*)\\}`).exec(site)?.[1] ?? '';
  return [...block.matchAll(/^\s*server (\S+?)(?: [^;]*)?;/gm)].map((match) => match[1]!);
}

const peers = upstream('wildtools_sessions');

t.test('nginx: both upstream blocks name the same replicas; sessions never move, new ones go anywhere', async (t) => {
  t.equal(peers.length, 3);
  t.same(upstream('wildtools_any'), peers);
  t.match(site, /hash \$wildtools_session consistent;/);
  t.equal((site.match(/^\s*server \S+ max_fails=0;/gm) ?? []).length, peers.length, 'no replica of a session is ever marked down');
  const sessions = site.slice(site.indexOf('location / {'), site.indexOf('location @any_replica'));
  t.match(sessions, /proxy_pass http:\/\/wildtools_sessions;\s*(#[^\n]*\n\s*)*proxy_next_upstream off;/, 'a session is never sent to another replica');
  t.match(site, /return 502 '\{[^']*"code":"replica_unreachable"[^']*\}/, 'a replica down is a problem');
});

t.test('nginx: the configuration renders for other replicas and another address', async (t) => {
  const rendered = renderSite({ replicas: ['127.0.0.1:9001', '127.0.0.1:9002'], listen: '127.0.0.1:9000' });
  t.match(
    rendered,
    /upstream wildtools_sessions \{\n\s*hash [^\n]+\n\s*server 127\.0\.0\.1:9001 max_fails=0;\n\s*server 127\.0\.0\.1:9002 max_fails=0;\n\s*keepalive/,
  );
  t.match(rendered, /upstream wildtools_any \{\n\s*server 127\.0\.0\.1:9001;\n\s*server 127\.0\.0\.1:9002;\n\s*keepalive/);
  t.match(rendered, /listen 127\.0\.0\.1:9000;/);
  t.notMatch(rendered, /wildtools-\d\.wildtools/, 'no example replica left');
});

t.test('docker compose: one service and one volume per replica, CLUSTER_PEERS as nginx lists them', async (t) => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string>; volumes?: string[]; networks?: { default?: { aliases?: string[] } } }>;
    volumes: Record<string, unknown>;
  };
  const replicas = Object.entries(compose.services).filter(([, service]) => service.environment?.['CLUSTER_SELF']);
  t.equal(replicas.length, peers.length);
  const volumes = new Set<string>();
  for (const [name, service] of replicas) {
    const env = service.environment!;
    t.same(env['CLUSTER_PEERS']!.split(','), peers, `${name}: CLUSTER_PEERS`);
    t.ok(peers.includes(env['CLUSTER_SELF']!), `${name}: CLUSTER_SELF is a peer`);
    t.ok(service.networks?.default?.aliases?.includes(env['CLUSTER_SELF']!.split(':')[0]!), `${name}: reachable under its peer name`);
    t.equal(env['DATA_DIR'], '/data');
    const volume = service.volumes?.[0]?.split(':')[0];
    t.ok(volume && Object.hasOwn(compose.volumes, volume), `${name}: a volume of its own`);
    volumes.add(volume!);
  }
  t.equal(volumes.size, peers.length, 'no two replicas share a volume');
  t.match(JSON.stringify(compose.services['nginx']), /nginx\/wildtools\.conf/);
});

t.test('kubernetes: a StatefulSet of as many replicas as nginx lists, named as it names them', async (t) => {
  const objects = parseAllDocuments(read('kubernetes/wildtools.yaml')).map((document) => document.toJS()) as Record<string, any>[];
  const set = objects.find((object) => object['kind'] === 'StatefulSet')!;
  const service = objects.find((object) => object['kind'] === 'Service')!;
  t.equal(set['spec'].replicas, peers.length);
  t.equal(service['spec'].clusterIP, 'None', 'headless: a name per replica');
  t.equal(set['spec'].serviceName, service['metadata'].name);
  const env = Object.fromEntries((set['spec'].template.spec.containers[0].env as { name: string; value?: string }[]).map((e) => [e.name, e.value]));
  t.same(env['CLUSTER_PEERS']!.split(','), peers);
  const names = peers.map((_, i) => env['CLUSTER_SELF']!.replace('$(POD_NAME)', `${set['metadata'].name}-${i}`));
  t.same(names, peers, 'each pod is the peer of its ordinal');
  t.equal(env['DATA_DIR'], set['spec'].template.spec.containers[0].volumeMounts[0].mountPath);
  t.equal(set['spec'].volumeClaimTemplates[0].metadata.name, set['spec'].template.spec.containers[0].volumeMounts[0].name, 'a volume per replica');

  const kustomization = parse(read('kustomization.yaml')) as { resources: string[]; configMapGenerator: { name: string; files: string[] }[] };
  t.same(kustomization.configMapGenerator[0]!.files, ['nginx/wildtools.conf'], 'the router runs the shipped configuration');
  const router = parseAllDocuments(read('kubernetes/router.yaml')).map((document) => document.toJS()) as Record<string, any>[];
  const deployment = router.find((object) => object['kind'] === 'Deployment')!;
  t.equal(deployment['spec'].template.spec.volumes[0].configMap.name, kustomization.configMapGenerator[0]!.name);
  const ingress = router.find((object) => object['kind'] === 'Ingress')!;
  t.equal(ingress['spec'].ingressClassName, 'nginx');
  t.ok(ingress['metadata'].annotations['nginx.ingress.kubernetes.io/upstream-hash-by'], 'ingress-nginx hashes');
  t.equal(ingress['spec'].rules[0].http.paths[0].backend.service.name, router.find((object) => object['kind'] === 'Service')!['metadata'].name);
  for (const resource of kustomization.resources) t.doesNotThrow(() => read(resource), `${resource} exists`);
});
