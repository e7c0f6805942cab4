import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** deploy/kubernetes and deploy/compose.yaml, as the tests read them. */
export const root = new URL('../..', import.meta.url).pathname;
export const KUBERNETES_DIR = join(root, 'deploy/kubernetes');
export const COMPOSE_FILE = join(root, 'deploy/compose.yaml');

// biome-ignore lint/suspicious/noExplicitAny: a manifest is whatever YAML the file holds; the schemas check its shape.
export type Manifest = Record<string, any>;

export interface ManifestDocument {
  file: string;
  manifest: Manifest;
}

/** Every document of every manifest file (kustomization.yaml is kustomize's, not a resource). */
export function kubernetesManifests(): ManifestDocument[] {
  return readdirSync(KUBERNETES_DIR)
    .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
    .sort()
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(KUBERNETES_DIR, file), 'utf8')).map((document) => {
        if (document.errors.length) throw new Error(`${file}: ${document.errors[0]?.message}`);
        return { file, manifest: document.toJS() as Manifest };
      }),
    );
}

export const findManifest = (kind: string, name: string): Manifest => {
  const found = kubernetesManifests().find(({ manifest }) => manifest.kind === kind && manifest.metadata?.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/kubernetes`);
  return found.manifest;
};
