/**
 * Google API keys that Firebase publishes in its open-source SDKs' tests and sample apps
 * (https://github.com/firebase/firebase-android-sdk, https://github.com/firebase/firebase-js-sdk): public by design,
 * restricted to Firebase's own test projects, and copied into countless forks and vendored SDK trees. gitleaks
 * allowlists the same values for its gcp-api-key rule. A finding on one of them helps no one; any other `AIza…` key
 * is still reported.
 */
export const FIREBASE_SDK_TEST_KEYS: readonly string[] = [
  'AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs',
  'AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM',
  'AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU',
  'AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0',
  'AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A',
  'AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c',
  'AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4',
  'AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY',
  'AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM',
  'AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ',
  'AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g',
  'AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU',
  'AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw',
  'AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE',
  'AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY',
];

/**
 * The account Secret Key inside the example service account token that 1Password's developer documentation decodes
 * (https://developer.1password.com/docs/service-accounts/security/), copied from there into scanners' rule code and
 * SDKs' tests. No account holds it; any other `A3-…` key is still reported.
 */
export const ONEPASSWORD_DOCS_EXAMPLE_KEYS: readonly string[] = ['A3-C4ZJMN-PQTZTL-HGL84-G64M7-KVZRN-4ZVP6'];
