import type { RuleEntry } from '../lazy-rule.js';
import { type NamedProviderRow, namedProviderInfo, namedProviderRules } from './named-providers.js';
import type { ProviderInfo } from './providers.js';

/**
 * SaaS APIs whose keys have no prefix, read as provider-named assignments (`NIMBLE_API_KEY=…`, `scw_secret_key: …`)
 * and, through the prose rules, after the provider's name in words (`nimble token …`). One row each in the shape of
 * `named-providers.ts`: [file key, provider, aliases, value shape, reference]. The formats are public facts, from
 * Kingfisher's open rule set (each row's reference, `data/rules/<name>.yml`) and the providers' documentation;
 * regexes and samples are our own. Aliases are the names people give the variable (`scw` is Scaleway's own
 * `SCW_SECRET_KEY`); a provider whose name is an everyday word (`float`, `close`, `privacy`) is left out, and so is a
 * key shorter than 20 characters, which a name and a shape alone cannot tell from an identifier.
 */
const KINGFISHER = 'https://github.com/mongodb/kingfisher/blob/main/data/rules/';
const rule = (name: string) => `${KINGFISHER}${name}.yml`;

const ROWS: readonly NamedProviderRow[] = [
  ['apifonica', 'Apifonica', 'apifonica', 'alnum-:39', rule('apifonica')],
  ['appointedd', 'Appointedd', 'appointedd', 'alnum+=:88', rule('appointedd')],
  ['appoptics', 'AppOptics', 'appoptics', 'alnum_-:71', rule('appoptics')],
  ['audd', 'AudD', 'audd', 'alnum-:32', rule('audd')],
  ['ayrshare', 'Ayrshare', 'ayrshare', 'alnum-:35', rule('ayrshare')],
  ['besttime', 'BestTime', 'besttime', 'alnum_:36', rule('besttime')],
  ['bombbomb', 'BombBomb', 'bombbomb', 'alnum+/=:88', rule('bombbomb')],
  // Bugsnag's API keys are 32 hex digits; older notifier keys were written as UUIDs.
  ['bugsnag', 'Bugsnag', 'bugsnag', 'hex-:32-36', rule('bugsnag')],
  ['capsulecrm', 'Capsule CRM', 'capsulecrm capsule', 'alnum-_.+=:64', rule('capsulecrm')],
  ['cliengo', 'Cliengo', 'cliengo', 'hex-:36', rule('cliengo')],
  ['cloverly', 'Cloverly', 'cloverly', 'alnum_:28', rule('cloverly')],
  ['codemagic', 'Codemagic', 'codemagic', 'alnum_:43', rule('codemagic')],
  ['collect2', 'Collect2', 'collect2', 'hex-:36', rule('collect2')],
  ['currentsapi', 'Currents API', 'currentsapi', 'alnum-_+=:48', rule('currentsapi')],
  ['databox', 'Databox', 'databox', 'alnum+=:21', rule('databox')],
  ['delighted', 'Delighted', 'delighted', 'alnum:32', rule('delighted')],
  ['elasticemail', 'Elastic Email', 'elasticemail', 'alnum-_:96', rule('elasticemail')],
  ['exchangerateapi', 'ExchangeRate-API', 'exchangerate', 'alnum:24', rule('exchangerateapi')],
  ['exchangeratesapi', 'Exchange Rates API', 'exchangerates', 'alnum:32', rule('exchangeratesapi')],
  ['findl', 'Findl', 'findl', 'alnum-:36', rule('findl')],
  ['finicity', 'Finicity', 'finicity', 'hex:32', rule('finicity')],
  ['fixerio', 'Fixer', 'fixer fixerio', 'alnum:32', rule('fixerio')],
  ['fulcrum', 'Fulcrum', 'fulcrum', 'alnum:80', rule('fulcrum')],
  ['fxmarket', 'FX Market API', 'fxmarket', 'alnum-_=:20', rule('fxmarket')],
  ['getgist', 'Gist', 'getgist', 'alnum+=:68', rule('getgist')],
  ['hellosign', 'Dropbox Sign (HelloSign)', 'hellosign', 'hex:64', rule('hellosign')],
  ['hunter', 'Hunter', 'hunter hunterio', 'hex:40', rule('hunter')],
  ['imagekit', 'ImageKit', 'imagekit', 'alnum_=:36', rule('imagekit')],
  ['imagga', 'Imagga', 'imagga', 'alnum=:72', rule('imagga')],
  ['juro', 'Juro', 'juro', 'alnum:40', rule('juro')],
  // Private API keys: `pk_` and 34 characters (public keys are six-character site IDs).
  ['klaviyo', 'Klaviyo', 'klaviyo', 'alnum_:37', rule('klaviyo')],
  ['linkpreview', 'LinkPreview', 'linkpreview', 'alnum:32', rule('linkpreview')],
  ['mailmodo', 'Mailmodo', 'mailmodo', 'alnum-:31', rule('mailmodo')],
  ['moosend', 'Moosend', 'moosend', 'hex-:36', rule('moosend')],
  ['newsapi', 'NewsAPI', 'newsapi', 'alnum:32', rule('newsapi')],
  ['nimble', 'Nimble', 'nimble', 'alnum:30', rule('nimble')],
  ['optimizely', 'Optimizely', 'optimizely', 'alnum-:54', rule('optimizely')],
  ['pandascore', 'PandaScore', 'pandascore', 'alnum-_:51', rule('pandascore')],
  ['polygon', 'Polygon.io', 'polygon polygonio', 'alnum:32', rule('polygon')],
  ['qase', 'Qase', 'qase', 'alnum:40', rule('qase')],
  ['rawg', 'RAWG', 'rawg', 'alnum:32', rule('rawg')],
  ['requestfinance', 'Request Finance', 'requestfinance', 'alnum-:31', rule('requestfinance')],
  ['rockset', 'Rockset', 'rockset', 'alnum:64', rule('rockset')],
  // The secret key of an API key pair is a UUID (its access key, `SCW` and 17 characters, names it).
  ['scaleway', 'Scaleway', 'scaleway scw', 'hex-:36', rule('scalewaykey')],
  // `scp-live-` or `scp-test-` and 32 characters; older keys are the 32 characters alone.
  ['scrapfly', 'Scrapfly', 'scrapfly', 'alnum-:32-41', rule('scrapfly')],
  ['screenshotapi', 'ScreenshotAPI', 'screenshotapi', 'alnum-:31', rule('screenshotapi')],
  ['shortcut', 'Shortcut', 'shortcut clubhouse', 'hex-:36', rule('shortcut')],
  ['simplesat', 'Simplesat', 'simplesat', 'alnum:40', rule('simplesat')],
  ['smartsheet', 'Smartsheet', 'smartsheet smartsheets', 'alnum:26-37', rule('smartsheets')],
  ['sparkpost', 'SparkPost', 'sparkpost', 'alnum:40', rule('sparkpost')],
  ['speechtext', 'Speechtext.AI', 'speechtext speechtextai', 'hex:32', rule('speechtextai')],
  ['supernotes', 'Supernotes', 'supernotes', 'alnum-_:43', rule('supernotesapi')],
  ['swiftype', 'Swiftype', 'swiftype', 'alnum-_:20', rule('swiftype')],
  ['tatum', 'Tatum', 'tatum tatumio', 'alnum-:36', rule('tatumio')],
  ['teletype', 'Teletype', 'teletype', 'alnum-:64', rule('teletype')],
  ['transferwise', 'Wise (TransferWise)', 'transferwise', 'hex-:36', rule('transferwise')],
  ['vbout', 'VBOUT', 'vbout', 'hex:25', rule('vbout')],
  ['vyte', 'Vyte', 'vyte', 'alnum:50', rule('vyte')],
  ['webscraper', 'Web Scraper', 'webscraper', 'alnum:60', rule('webscraper')],
  ['webscraping', 'WebScraping.AI', 'webscraping', 'alnum:32', rule('webscraping')],
  ['yelp', 'Yelp Fusion', 'yelp', 'alnum-_:128', rule('yelp')],
  ['zenkit', 'Zenkit', 'zenkit', 'alnum-:41', rule('zenkitapi')],
  ['zipcodebase', 'Zipcodebase', 'zipcodebase', 'hex-:36', rule('zipcodebase')],
];

export const SAAS_NAMED_RULES: Readonly<Record<string, readonly RuleEntry[]>> = namedProviderRules(ROWS);

export const SAAS_NAMED_ROWS: readonly NamedProviderRow[] = ROWS;

export const SAAS_NAMED_INFO: Readonly<Record<string, ProviderInfo>> = namedProviderInfo(ROWS);
