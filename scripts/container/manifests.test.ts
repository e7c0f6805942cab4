import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { COMPOSE_FILE, findManifest, KUBERNETES_DIR, kubernetesManifests, type Manifest } from './manifests.ts';

/**
 * deploy/kubernetes against the Kubernetes 1.34 JSON schemas and CloudNativePG's Cluster CRD, and
 * deploy/compose.yaml against the Compose Specification (all vendored in ./schemas: no network),
 * then what the schemas cannot say: the replicas, probes, budgets and references that make the
 * deployment hold together.
 */
const SCHEMAS: Record<string, string> = {
  'apps/v1 Deployment': 'deployment-apps-v1.json',
  'v1 Service': 'service-v1.json',
  'v1 Secret': 'secret-v1.json',
  'v1 ConfigMap': 'configmap-v1.json',
  'policy/v1 PodDisruptionBudget': 'poddisruptionbudget-policy-v1.json',
  'postgresql.cnpg.io/v1 Cluster': 'cluster-postgresql.cnpg.io-v1.json',
};

type Schema = Record<string, unknown>;

/** As openapi2jsonschema --strict: an object schema that names its properties refuses any other. */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, strict(value)]));
  if (out.properties && out.additionalProperties === undefined && !out['x-kubernetes-preserve-unknown-fields'])
    out.additionalProperties = false;
  return out;
}

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const readSchema = (file: string): Schema => {
  const { $schema: _, ...schema } = JSON.parse(readFileSync(join(import.meta.dirname, 'schemas', file), 'utf8')) as Schema;
  return schema;
};
const validators = new Map<string, ValidateFunction>();
function validatorFor(manifest: Manifest): ValidateFunction {
  const kind = `${manifest.apiVersion} ${manifest.kind}`;
  const file = SCHEMAS[kind];
  if (!file) throw new Error(`no schema for ${kind}`);
  let validate = validators.get(file);
  if (!validate) {
    validate = ajv.compile(strict(readSchema(file)) as Schema);
    validators.set(file, validate);
  }
  return validate;
}

const problems = (validate: ValidateFunction, value: unknown) =>
  validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);

const manifests = kubernetesManifests();
const deployments = manifests.filter(({ manifest }) => manifest.kind === 'Deployment').map(({ manifest }) => manifest);
const server = findManifest('Deployment', 'latchkey-server');
const hub = findManifest('Deployment', 'latchkey-hub');
const containersOf = (deployment: Manifest): Manifest[] => deployment.spec.template.spec.containers;
const envOf = (container: Manifest, name: string): string | undefined =>
  container.env?.find((e: Manifest) => e.name === name)?.value;
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

describe('the Kubernetes manifests', () => {
  test.each(manifests.map(({ file, manifest }) => [`${file}: ${manifest.kind} ${manifest.metadata?.name}`, manifest]))(
    '%s is valid against its schema',
    (_name, manifest) => {
      expect(problems(validatorFor(manifest as Manifest), manifest)).toEqual([]);
    },
  );

  test('the strict schemas refuse what Kubernetes would refuse: a misspelled field, a wrong type', () => {
    const misspelled = structuredClone(server);
    misspelled.spec.replica = 2;
    expect(problems(validatorFor(misspelled), misspelled).join()).toContain('additionalProperty');
    const wrongType = structuredClone(server);
    wrongType.spec.template.spec.containers[0].ports[0].containerPort = 'eighty';
    expect(problems(validatorFor(wrongType), wrongType)).not.toEqual([]);
    const cluster = structuredClone(findManifest('Cluster', 'latchkey-db'));
    cluster.spec.instance = 3;
    expect(problems(validatorFor(cluster), cluster).join()).toContain('additionalProperty');
  });

  test('kustomization.yaml lists every manifest file', () => {
    const kustomization = parse(readFileSync(join(KUBERNETES_DIR, 'kustomization.yaml'), 'utf8'));
    expect([...kustomization.resources].sort()).toEqual([...new Set(manifests.map(({ file }) => file))].sort());
  });

  test('the server runs at least two replicas, never fewer than one in a voluntary disruption', () => {
    expect(server.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(server.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    const budgets = manifests.filter(({ manifest }) => manifest.kind === 'PodDisruptionBudget').map(({ manifest }) => manifest);
    const budget = budgets.find((b) => matches(b.spec.selector.matchLabels, server.spec.template.metadata.labels));
    expect(budget?.spec.minAvailable).toBeGreaterThanOrEqual(1);
    expect(budget?.spec.minAvailable).toBeLessThan(server.spec.replicas);
  });

  test('one image for both programs, the command choosing; the Hub runs one replica', () => {
    const [serverContainer] = containersOf(server);
    const [hubContainer] = containersOf(hub);
    expect(serverContainer?.image).toBe(hubContainer?.image);
    expect(serverContainer?.args).toEqual(['server']);
    expect(hubContainer?.args).toEqual(['hub']);
    expect(hub.spec.replicas).toBe(1);
  });

  test.each([
    ['server', server],
    ['Hub', hub],
  ])(
    'the %s is taken out of rotation by /readyz, asks for resources, runs unprivileged on a read-only root, and has time to drain',
    (_name, deployment) => {
      const pod = deployment.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      for (const container of containersOf(deployment)) {
        expect(container.readinessProbe.httpGet.path).toBe('/readyz');
        expect(container.ports.map((p: Manifest) => p.name)).toContain(container.readinessProbe.httpGet.port);
        expect(container.resources.requests.cpu).toBeTruthy();
        expect(container.resources.requests.memory).toBeTruthy();
        expect(container.resources.limits.memory).toBeTruthy();
        expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
        expect(container.securityContext.allowPrivilegeEscalation).toBe(false);
        const drain = Number(envOf(container, 'SHUTDOWN_DELAY_SECONDS')) + Number(envOf(container, 'SHUTDOWN_GRACE_SECONDS'));
        expect(drain).toBeGreaterThan(0);
        expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(drain);
      }
    },
  );

  test('every Deployment asks for resources and every Service reaches a Deployment on a port it names', () => {
    for (const deployment of deployments)
      for (const container of containersOf(deployment))
        expect(container.resources.requests, deployment.metadata.name).toBeTruthy();
    const services = manifests.filter(({ manifest }) => manifest.kind === 'Service').map(({ manifest }) => manifest);
    expect(services.map((s) => s.metadata.name).sort()).toEqual(['latchkey-hub', 'latchkey-redis', 'latchkey-server']);
    for (const service of services) {
      const target = deployments.find((d) => matches(service.spec.selector, d.spec.template.metadata.labels));
      expect(target, service.metadata.name).toBeDefined();
      const ports = containersOf(target as Manifest).flatMap((c) => c.ports.map((p: Manifest) => p.name));
      for (const port of service.spec.ports) expect(ports).toContain(port.targetPort);
    }
  });

  test('every key, setting and database address a pod reads is defined: in secrets.yaml, config.yaml, or by CloudNativePG', () => {
    const secrets = new Map<string, string[]>();
    for (const { manifest } of manifests) {
      if (manifest.kind === 'Secret') secrets.set(manifest.metadata.name, Object.keys(manifest.stringData ?? {}));
      // The operator writes each cluster's connection string to `<cluster>-app`.
      if (manifest.kind === 'Cluster') secrets.set(`${manifest.metadata.name}-app`, ['uri']);
    }
    const config = findManifest('ConfigMap', 'latchkey-config');
    for (const deployment of [server, hub]) {
      const pod = deployment.spec.template.spec;
      for (const volume of pod.volumes.filter((v: Manifest) => v.secret))
        expect(secrets.has(volume.secret.secretName)).toBe(true);
      for (const container of containersOf(deployment)) {
        for (const { name, value, valueFrom } of container.env as Manifest[]) {
          if (valueFrom?.secretKeyRef)
            expect(secrets.get(valueFrom.secretKeyRef.name), name).toContain(valueFrom.secretKeyRef.key);
          if (valueFrom?.configMapKeyRef) expect(Object.keys(config.data), name).toContain(valueFrom.configMapKeyRef.key);
          // A key file is one of the mounted Secret's keys.
          if (name.endsWith('_FILE')) {
            const mount = container.volumeMounts.find((m: Manifest) => value.startsWith(`${m.mountPath}/`));
            const volume = pod.volumes.find((v: Manifest) => v.name === mount?.name);
            expect(secrets.get(volume?.secret?.secretName), name).toContain(value.slice(mount.mountPath.length + 1));
          }
        }
      }
    }
  });
});

describe('the compose file', () => {
  const compose = parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true });

  test('is valid against the Compose Specification', () => {
    expect(problems(ajv.compile(readSchema('compose-spec.json')), compose)).toEqual([]);
  });

  test('runs PostgreSQL, Redis, two servers and one Hub of the same image, and a proxy', () => {
    const { services } = compose;
    expect(Object.keys(services).sort()).toEqual(['hub', 'postgres', 'proxy', 'redis', 'server-1', 'server-2']);
    expect(services['server-1'].image).toBe(services.hub.image);
    expect(services['server-1'].command).toEqual(['server']);
    expect(services['server-2']).toEqual(services['server-1']);
    expect(services.hub.command).toEqual(['hub']);
    for (const name of ['server-1', 'server-2', 'hub']) {
      expect(services[name].read_only).toBe(true);
      for (const secret of services[name].secrets) expect(Object.keys(compose.secrets)).toContain(secret);
    }
    const caddyfile = readFileSync(join(KUBERNETES_DIR, '..', 'Caddyfile'), 'utf8');
    expect(caddyfile).toMatch(/reverse_proxy server-1:8080 server-2:8080[^}]*health_uri \/readyz/);
  });
});
