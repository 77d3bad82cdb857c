import { z } from 'zod';

/** zod shapes of the answers to the documents in `../graphql-documents.ts`, validated at the boundary. */

const rawCommentSchema = z.object({
  id: z.string(),
  fullDatabaseId: z.union([z.string(), z.number()]).nullable().optional(),
  author: z.object({ login: z.string(), __typename: z.string().optional() }).nullable(),
  authorAssociation: z.string().nullable().optional(),
  body: z.string(),
  path: z.string().nullable().optional(),
  line: z.number().int().nullable().optional(),
  createdAt: z.string().nullable().optional(),
  updatedAt: z.string().nullable().optional(),
  url: z.string().nullable().optional(),
  isMinimized: z.boolean().default(false),
  viewerCanUpdate: z.boolean().default(false),
  viewerCanDelete: z.boolean().default(false),
  viewerDidAuthor: z.boolean().default(false),
  state: z.enum(['PENDING', 'SUBMITTED']).default('SUBMITTED'),
});
export type RawComment = z.output<typeof rawCommentSchema>;

const pageInfoSchema = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });

const threadFields = {
  id: z.string(),
  isResolved: z.boolean(),
  isOutdated: z.boolean(),
  path: z.string().nullable().optional(),
  line: z.number().int().nullable().optional(),
  startLine: z.number().int().nullable().optional(),
  originalStartLine: z.number().int().nullable().optional(),
  subjectType: z.string().nullable().optional(),
  viewerCanReply: z.boolean(),
  viewerCanResolve: z.boolean(),
  viewerCanUnresolve: z.boolean(),
  resolvedBy: z.object({ login: z.string() }).nullable().optional(),
};

/** GitHub may hand back null entries in `nodes` (a deleted node); they are dropped. */
function nodes<T extends z.ZodType>(item: T) {
  return z
    .array(item.nullable())
    .transform((list) => list.filter((entry): entry is NonNullable<typeof entry> => entry !== null));
}

const rawThreadSchema = z.object({
  ...threadFields,
  comments: z.object({ totalCount: z.number().int(), pageInfo: pageInfoSchema, nodes: nodes(rawCommentSchema) }),
});
export type RawThread = z.output<typeof rawThreadSchema>;

const pendingReviewsSchema = z.object({ nodes: nodes(z.object({ id: z.string(), viewerDidAuthor: z.boolean() })) });

export const reviewThreadsPageSchema = z.object({
  viewer: z.object({ login: z.string() }),
  repository: z
    .object({
      nameWithOwner: z.string(),
      pullRequest: z
        .object({
          id: z.string(),
          number: z.number().int(),
          url: z.string(),
          state: z.string(),
          headRefOid: z.string(),
          pendingReviews: pendingReviewsSchema,
          reviewThreads: z.object({
            totalCount: z.number().int(),
            pageInfo: pageInfoSchema,
            nodes: nodes(rawThreadSchema),
          }),
        })
        .nullable(),
    })
    .nullable(),
});

export const threadCommentsPageSchema = z.object({
  node: z
    .object({
      __typename: z.string(),
      comments: z.object({ pageInfo: pageInfoSchema, nodes: nodes(rawCommentSchema) }).optional(),
    })
    .nullable(),
});

const snapshotThreadSchema = z.object({
  __typename: z.literal('PullRequestReviewThread'),
  ...threadFields,
  pullRequest: z.object({
    number: z.number().int(),
    headRefOid: z.string(),
    repository: z.object({ nameWithOwner: z.string() }),
    pendingReviews: pendingReviewsSchema,
  }),
  comments: z.object({ totalCount: z.number().int(), nodes: nodes(rawCommentSchema) }),
});
export type RawThreadSnapshot = z.output<typeof snapshotThreadSchema>;

export const threadSnapshotSchema = z.object({
  viewer: z.object({ login: z.string() }),
  node: z.union([snapshotThreadSchema, z.object({ __typename: z.string() })]).nullable(),
});

export const pullRequestForBranchSchema = z.object({
  repository: z
    .object({
      pullRequests: z.object({
        nodes: nodes(z.object({ number: z.number().int(), url: z.string(), headRefName: z.string() })),
      }),
    })
    .nullable(),
});

export const addReplySchema = z.object({
  addPullRequestReviewThreadReply: z
    .object({
      comment: z
        .object({ id: z.string(), url: z.string().nullable(), state: z.enum(['PENDING', 'SUBMITTED']) })
        .nullable(),
    })
    .nullable(),
});

export const threadResolutionSchema = z.object({
  resolveReviewThread: z
    .object({ thread: z.object({ id: z.string(), isResolved: z.boolean() }).nullable() })
    .nullable(),
});

export const threadUnresolutionSchema = z.object({
  unresolveReviewThread: z
    .object({ thread: z.object({ id: z.string(), isResolved: z.boolean() }).nullable() })
    .nullable(),
});
