import { LazyRule, type RuleEntry } from '../lazy-rule.js';
import type { SecretRule } from '../rule.js';
import { uniformRuleWith } from '../uniform-rule.js';
import adyen from './adyen.js';
import age from './age.js';
import airtable from './airtable.js';
import akamai from './akamai.js';
import alibaba from './alibaba.js';
import anthropic from './anthropic.js';
import asana from './asana.js';
import atlassian from './atlassian.js';
import authHeader, { AUTH_HEADER_INFO } from './auth-header.js';
import aws from './aws.js';
import azure from './azure.js';
import basicAuth from './basic-auth.js';
import bitbucket from './bitbucket.js';
import brevo from './brevo.js';
import broker from './broker.js';
import clojars from './clojars.js';
import cloudflare from './cloudflare.js';
import cohere from './cohere.js';
import configArray from './config-array.js';
import contentful from './contentful.js';
import curl from './curl.js';
import database from './database.js';
import databricks from './databricks.js';
import datadog from './datadog.js';
import deepseek from './deepseek.js';
import definedNetworking from './defined-networking.js';
import digitalocean from './digitalocean.js';
import discord from './discord.js';
import docker from './docker.js';
import doppler from './doppler.js';
import dotnetCredential from './dotnet-credential.js';
import dropbox from './dropbox.js';
import dynatrace from './dynatrace.js';
import facebook from './facebook.js';
import figma from './figma.js';
import fireworks from './fireworks.js';
import flyio from './flyio.js';
import framework from './framework.js';
import generic from './generic.js';
import github from './github.js';
import gitlab from './gitlab.js';
import google from './google.js';
import gradle, { GRADLE_INFO } from './gradle.js';
import grafana from './grafana.js';
import groq from './groq.js';
import hashicorp from './hashicorp.js';
import heroku from './heroku.js';
import huggingface from './huggingface.js';
import instagram from './instagram.js';
import jfrog from './jfrog.js';
import jwt from './jwt.js';
import linear from './linear.js';
import llama from './llama.js';
import { LONG_TAIL_INFO, LONG_TAIL_RULES } from './long-tail.js';
import mailchimp from './mailchimp.js';
import mailgun from './mailgun.js';
import mailjet from './mailjet.js';
import mapbox from './mapbox.js';
import mistral from './mistral.js';
import { MORE_PROVIDER_INFO, MORE_PROVIDER_RULES } from './more-providers.js';
import { NAMED_PROVIDER_INFO, NAMED_PROVIDER_RULES } from './named-providers.js';
import netlify from './netlify.js';
import newrelic from './newrelic.js';
import notion from './notion.js';
import npm from './npm.js';
import ntlm from './ntlm.js';
import nuget from './nuget.js';
import okta from './okta.js';
import onepassword from './onepassword.js';
import openai from './openai.js';
import { PASSWORD_FILE_INFO, PASSWORD_FILE_RULES } from './password-files.js';
import passwordHash, { PASSWORD_HASH_INFO } from './password-hash.js';
import paypal from './paypal.js';
import perplexity from './perplexity.js';
import planetscale from './planetscale.js';
import posthog from './posthog.js';
import postman from './postman.js';
import postmark from './postmark.js';
import powershell from './powershell.js';
import privateKey from './private-key.js';
import { PROVIDER_INFO, type ProviderInfo } from './providers.js';
import { FORMAT_PROVIDER_INFO, FORMAT_PROVIDER_RULES } from './providers-formats.js';
import { INFRA_PROVIDER_INFO, INFRA_PROVIDER_RULES } from './providers-infra.js';
import { MORE_NAMED_INFO, MORE_NAMED_RULES } from './providers-named-more.js';
import { SAAS_NAMED_INFO, SAAS_NAMED_RULES } from './providers-named-saas.js';
import providersProse from './providers-prose.js';
import pulumi from './pulumi.js';
import pypi from './pypi.js';
import railway from './railway.js';
import render from './render.js';
import replicate from './replicate.js';
import rubygems from './rubygems.js';
import salesforce from './salesforce.js';
import { SELF_HOSTED_INFO, SELF_HOSTED_RULES } from './self-hosted.js';
import sendgrid from './sendgrid.js';
import sentry from './sentry.js';
import shell from './shell.js';
import shopify from './shopify.js';
import { SIGNED_URL_INFO, SIGNED_URL_RULES } from './signed-urls-and-oauth.js';
import slack from './slack.js';
import snyk from './snyk.js';
import sonarqube from './sonarqube.js';
import square from './square.js';
import stripe from './stripe.js';
import supabase from './supabase.js';
import tavily from './tavily.js';
import telegram from './telegram.js';
import together from './together.js';
import twilio from './twilio.js';
import twitter from './twitter.js';
import vercel from './vercel.js';
import wundergraph from './wundergraph.js';
import xai from './xai.js';

/**
 * Every built-in rule, in priority order: where two rules match the same text, the earlier wins. Provider formats
 * come first, then the long tail (prefixed tokens, then provider-named assignments), URLs and wrapped keys next,
 * generic assignments last. A new provider file is one import, one entry here and one in `providers.ts`.
 */
const FIRST_FILES: Record<string, readonly SecretRule[]> = {
  github,
  gitlab,
  npm,
  aws,
  google,
  azure,
  slack,
  stripe,
  openai,
  anthropic,
  huggingface,
  pypi,
  twilio,
  sendgrid,
  mailgun,
  shopify,
  discord,
  bitbucket,
  clojars,
  dynatrace,
  instagram,
  nuget,
  llama,
  sonarqube,
  tavily,
  'defined-networking': definedNetworking,
  telegram,
  digitalocean,
  heroku,
  datadog,
  sentry,
  hashicorp,
  linear,
  notion,
  atlassian,
  postman,
  grafana,
  newrelic,
  mailchimp,
  square,
  facebook,
  age,
  planetscale,
  supabase,
  cloudflare,
  databricks,
  pulumi,
  rubygems,
  flyio,
  onepassword,
  contentful,
  figma,
  airtable,
  mapbox,
  brevo,
  alibaba,
  doppler,
  dropbox,
  groq,
  xai,
  perplexity,
  replicate,
  together,
  fireworks,
  deepseek,
  mistral,
  cohere,
  posthog,
  jfrog,
  vercel,
  netlify,
  paypal,
  adyen,
  render,
  railway,
  okta,
  snyk,
  postmark,
  mailjet,
  akamai,
  salesforce,
  twitter,
  wundergraph,
  asana,
};

/** URLs and wrapped keys, then generic assignments. */
const LAST_FILES: Record<string, readonly SecretRule[]> = {
  'providers-prose': providersProse,
  'dotnet-credential': dotnetCredential,
  ntlm,
  jwt,
  'private-key': privateKey,
  'password-hash': passwordHash,
  docker,
  database,
  curl,
  powershell,
  shell,
  broker,
  'basic-auth': basicAuth,
  ...PASSWORD_FILE_RULES,
  framework,
  'config-array': configArray,
  gradle,
  'auth-header': authHeader,
  generic,
};

/** Two tables of provider files as one: a provider in both keeps its prefixed formats first, then its named rule. */
function mergeRuleFiles(
  ...tables: ReadonlyArray<Readonly<Record<string, readonly RuleEntry[]>>>
): Map<string, readonly RuleEntry[]> {
  const merged = new Map<string, readonly RuleEntry[]>();
  for (const table of tables) {
    for (const file in table) merged.set(file, [...(merged.get(file) ?? []), ...table[file]!]);
  }
  return merged;
}

/**
 * The three parts in order, as one object of them would hold them (a file named again keeps its place and takes its
 * later rules), in a Map: spreading the long tail's hundreds of files into one object literal, then listing its
 * entries, was most of the time the rules' index took at every start.
 */
function ruleFiles(): Map<string, readonly RuleEntry[]> {
  const files = new Map<string, readonly RuleEntry[]>();
  for (const file in FIRST_FILES) files.set(file, FIRST_FILES[file]!);
  // The long tail: prefixed tokens, then provider-named assignments.
  const longTail = mergeRuleFiles(
    LONG_TAIL_RULES,
    MORE_PROVIDER_RULES,
    FORMAT_PROVIDER_RULES,
    INFRA_PROVIDER_RULES,
    NAMED_PROVIDER_RULES,
    MORE_NAMED_RULES,
    SELF_HOSTED_RULES,
    SIGNED_URL_RULES,
    SAAS_NAMED_RULES,
  );
  for (const [file, rules] of longTail) files.set(file, rules);
  for (const file in LAST_FILES) files.set(file, LAST_FILES[file]!);
  return files;
}

/**
 * Each provider file's name and reference, looked up in these tables, the last one holding the file winning: merging
 * them into one object of hundreds of keys cost more at every start than the few hundred look-ups do.
 */
const INFO_TABLES: ReadonlyArray<Readonly<Record<string, ProviderInfo>>> = [
  SAAS_NAMED_INFO,
  MORE_NAMED_INFO,
  NAMED_PROVIDER_INFO,
  FORMAT_PROVIDER_INFO,
  INFRA_PROVIDER_INFO,
  PASSWORD_FILE_INFO,
  MORE_PROVIDER_INFO,
  LONG_TAIL_INFO,
  SELF_HOSTED_INFO,
  SIGNED_URL_INFO,
  PROVIDER_INFO,
  { gradle: GRADLE_INFO, 'auth-header': AUTH_HEADER_INFO, 'password-hash': PASSWORD_HASH_INFO },
];

function infoOf(file: string): ProviderInfo | undefined {
  for (let at = INFO_TABLES.length - 1; at >= 0; at--) {
    const table = INFO_TABLES[at]!;
    if (Object.hasOwn(table, file)) return table[file];
  }
  return undefined;
}

/** Each provider file's rules, each carrying its provider's name and format reference, in one shape. */
export const RULE_FILES: ReadonlyArray<readonly [string, readonly RuleEntry[]]> = Array.from(
  ruleFiles(),
  ([file, rules]) => {
    const info = infoOf(file);
    // One shape for every rule (see `uniformRule`).
    const finish = (rule: SecretRule) =>
      uniformRuleWith(rule, rule.provider ?? info?.name, rule.reference ?? info?.reference);
    return [file, rules.map((rule) => (rule instanceof LazyRule ? rule.mapped(finish) : finish(rule)))];
  },
);

/**
 * Every built-in rule in priority order, the provider-named ones kept as their outline until the scanner first needs
 * them (`LazyRule`): what a scan loads. `builtinRules` (rules/index.ts) is the same rules, all made.
 */
export const builtinRuleTable: readonly RuleEntry[] = RULE_FILES.flatMap(([, rules]) => rules);

/** Provider files whose rules find a kind of credential (private keys, passwords), not one vendor's tokens. */
export function isFormatFile(file: string): boolean {
  return infoOf(file)?.format === true;
}
