import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import jsonld, { type JsonLdDocument } from 'jsonld';
import type { FinishedAudit } from '../../api/audits/formats/audit-document.ts';
import { AUDIT_EARL_CONTEXT, earlDocument } from '../../api/audits/formats/earl.ts';
import { junitDocument } from '../../api/audits/formats/junit.ts';
import { sarifDocument } from '../../api/audits/formats/sarif.ts';
import type { AuditIssue } from '../../lib/audits.ts';

/** Microsoft's SARIF Multitool (the SARIF SDK's validator), from its npm package. */
const SARIF_MULTITOOL = createRequire(import.meta.url)('@microsoft/sarif-multitool-linux') as string;

const issue = (fields: Partial<AuditIssue> & Pick<AuditIssue, 'ruleId' | 'element'>): AuditIssue => ({
  issueId: `${fields.ruleId}-${fields.element.length.toString(16).padStart(10, '0')}`,
  category: 'contrast',
  severity: 'serious',
  description: 'Element has insufficient color contrast of 2.5 (foreground #999, background #fff)',
  wcagCriteria: ['1.4.3'],
  ...fields,
});

/** Two pages: one with two failed checks (an axe rule twice, the project's own once), one clean. */
const AUDIT: FinishedAudit = {
  kind: 'full',
  id: '6f1c1a38-4c5e-4a57-9a2e-0e3f6f5a1b2c',
  url: 'https://shop.example/',
  score: 71,
  grade: 'C',
  completedAt: new Date('2026-11-29T12:00:00Z'),
  pages: [
    {
      url: 'https://shop.example/',
      issues: [
        issue({ ruleId: 'color-contrast', element: '#price' }),
        issue({ ruleId: 'color-contrast', element: 'footer > a:nth-child(2)', severity: 'moderate' }),
        issue({
          ruleId: 'keyboard-trap',
          element: 'iframe#map |> div[role="application"]',
          category: 'keyboard',
          severity: 'critical',
          // What an element's own text may hold: markup, quotes and a control character.
          description: 'Focus stays in <div role="application"> & "Escape" does not leave it\u0007',
          wcagCriteria: ['2.1.2'],
        }),
      ],
      fixes: { 'keyboard-trap': 'Let Tab and Shift+Tab leave every control.' },
    },
    { url: 'https://shop.example/about', issues: [], fixes: {} },
  ],
};

describe('audit results as SARIF, JUnit XML and EARL (api/audits/formats)', () => {
  it('SARIF: a log that the SARIF SDK validates, a result per issue on its page and element, each check a rule', async () => {
    const sarif = sarifDocument(AUDIT) as {
      version: string;
      runs: {
        tool: { driver: { rules: { id: string; helpUri?: string; help?: { text: string } }[] } };
        properties: { pages: string[]; wcagVersion: string };
        results: {
          ruleId: string;
          ruleIndex: number;
          level: string;
          locations: {
            physicalLocation: { artifactLocation: { uri: string } };
            logicalLocations: { fullyQualifiedName: string; kind: string }[];
          }[];
          partialFingerprints: Record<string, string>;
          properties: { wcagCriteria: string[] };
        }[];
      }[];
    };
    const dir = await mkdtemp(join(tmpdir(), 'sarif-'));
    try {
      await writeFile(join(dir, 'audit.sarif'), JSON.stringify(sarif));
      const validated = spawnSync(
        SARIF_MULTITOOL,
        ['validate', join(dir, 'audit.sarif'), '--output', join(dir, 'validation.sarif')],
        { encoding: 'utf8', env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1' } },
      );
      assert.equal(validated.status, 0, validated.stdout + validated.stderr);
      // The validator's own findings, as SARIF: errors and warnings fail this test, but for a
      // location without a region (SARIF2017): a web page has no lines, its element is named instead.
      const findings = (
        JSON.parse(await readFile(join(dir, 'validation.sarif'), 'utf8')) as {
          runs: { results?: { ruleId: string; level?: string; message: { text?: string; id?: string } }[] }[];
        }
      ).runs.flatMap((run) => run.results ?? []);
      assert.deepEqual(
        findings.filter((finding) => finding.level !== 'note' && finding.ruleId !== 'SARIF2017'),
        [],
        validated.stdout,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    const [run] = sarif.runs;
    assert.equal(sarif.version, '2.1.0');
    assert.deepEqual(
      run!.tool.driver.rules.map((rule) => rule.id),
      ['color-contrast', 'keyboard-trap'],
    );
    assert.match(
      run!.tool.driver.rules[0]!.helpUri!,
      /^https:\/\/dequeuniversity\.com\/rules\/axe\/4\.\d+\/color-contrast$/,
    );
    assert.equal(run!.tool.driver.rules[1]!.helpUri, undefined, 'an own check has no Deque page');
    assert.equal(run!.tool.driver.rules[1]!.help?.text, 'Let Tab and Shift+Tab leave every control.');
    assert.deepEqual(run!.properties.pages, ['https://shop.example/', 'https://shop.example/about']);
    assert.equal(run!.properties.wcagVersion, '2.2');
    assert.deepEqual(
      run!.results.map((result) => [result.ruleId, result.ruleIndex, result.level]),
      [
        ['color-contrast', 0, 'error'],
        ['color-contrast', 0, 'warning'],
        ['keyboard-trap', 1, 'error'],
      ],
    );
    const trap = run!.results[2]!;
    assert.deepEqual(trap.locations[0]!.logicalLocations, [
      { fullyQualifiedName: 'iframe#map |> div[role="application"]', kind: 'element' },
    ]);
    assert.deepEqual(trap.locations[0]!.physicalLocation.artifactLocation, { uri: 'https://shop.example/' });
    assert.deepEqual(trap.properties.wcagCriteria, ['2.1.2']);
    assert.equal(trap.partialFingerprints['issueId/v1'], AUDIT.pages[0]!.issues[2]!.issueId);
  });

  it('JUnit XML: well formed, a suite per page, a failed case per failed check, a passing case for a clean page', () => {
    const xml = junitDocument(AUDIT);
    assert.equal(XMLValidator.validate(xml), true);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => ['testsuite', 'testcase'].includes(name),
    }).parse(xml) as {
      testsuites: {
        tests: string;
        failures: string;
        testsuite: {
          name: string;
          tests: string;
          failures: string;
          testcase: {
            name: string;
            classname: string;
            failure?: { type: string; message: string; '#text': string };
          }[];
        }[];
      };
    };
    const { testsuites } = parsed;
    assert.deepEqual([testsuites.tests, testsuites.failures], ['3', '2']);
    const [home, about] = testsuites.testsuite;
    assert.deepEqual([home!.name, home!.tests, home!.failures], ['https://shop.example/', '2', '2']);
    assert.deepEqual(
      home!.testcase.map((test) => [test.name, test.failure?.type]),
      [
        ['color-contrast (WCAG 1.4.3)', 'serious'],
        ['keyboard-trap (WCAG 2.1.2)', 'critical'],
      ],
    );
    assert.match(
      home!.testcase[1]!.failure!['#text'],
      /Focus stays in <div role="application"> & "Escape" does not leave it\uFFFD/,
    );
    assert.match(home!.testcase[0]!.failure!.message, /^2 elements: /);
    assert.deepEqual([about!.tests, about!.failures, about!.testcase[0]!.failure], ['1', '0', undefined]);
  });

  it('EARL: JSON-LD that makes RDF, a failed assertion per issue with its page, criteria and element', async () => {
    const earl = earlDocument(AUDIT) as JsonLdDocument;
    const quads = (await jsonld.toRDF(earl, { format: 'application/n-quads' })) as unknown as string;
    assert.equal(
      quads.match(/<http:\/\/www\.w3\.org\/ns\/earl#outcome> <http:\/\/www\.w3\.org\/ns\/earl#failed>/g)
        ?.length,
      3,
    );
    const framed = await jsonld.frame(earl, { '@context': AUDIT_EARL_CONTEXT, '@type': 'earl:Assertion' });
    const assertions = framed['@graph'] as unknown as {
      subject: { source: string };
      test: { title: string; isPartOf: { '@id': string } | { '@id': string }[]; '@id'?: string };
      result: { outcome: string; pointer: { 'ptr:expression': string } };
    }[];
    assert.equal(assertions.length, 3);
    const trap = assertions.find((assertion) => assertion.test.title === 'keyboard-trap')!;
    assert.equal(trap.subject.source, 'https://shop.example/');
    assert.equal(trap.result.outcome, 'earl:failed');
    assert.equal(trap.result.pointer['ptr:expression'], 'iframe#map |> div[role="application"]');
    assert.deepEqual(trap.test.isPartOf, { '@id': 'https://www.w3.org/TR/WCAG22/#no-keyboard-trap' });
    const contrast = assertions.find((assertion) => assertion.test.title === 'color-contrast')!;
    assert.match(contrast.test['@id']!, /color-contrast$/);
  });
});
