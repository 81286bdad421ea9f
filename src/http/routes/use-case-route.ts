/**
 * The routes of the use cases, derived from the table (service/use-cases.ts). A route says only
 * where its use case sits on the wire: method, path, the request's and the answers' schemas (for
 * validation and the OpenAPI document), and its summary. Everything else comes from the table or
 * is the same for every route: the permission (checked before the body is validated), the one
 * command envelope given to the executor (the actor, the input, `?dry_run=true`, the
 * Idempotency-Key header of a POST), and the answer: `{"data": ...}` with 201 for a creation, 200
 * otherwise and for a dry run, and a replay's kept bytes with `Idempotent-Replayed: true`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, preValidationAsyncHookHandler } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { LedgerService } from '../../service/ledger-service.js';
import type { Command, Outcome, ReadUseCase, UseCase } from '../../service/use-case.js';
import { actorOf } from '../plugins/auth.js';

/** The parts of a validated request a use case's input is made of. */
export interface RequestParts {
  params: any;
  query: any;
  body: any;
}

export interface UseCaseRoute<U extends UseCase = UseCase> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  useCase: U;
  schema: FastifySchema & { tags: string[]; summary: string };
  /**
   * The use case's input. By default the body (the query for a GET) merged with the path's
   * parameters: the table's input schemas are exactly that.
   */
  input?: (request: RequestParts) => Static<U['input']>;
  /** Whether the request asks for a dry run: `?dry_run=true` by default. */
  dryRun?: (request: RequestParts) => boolean;
  /** A read's answer is its result as it is (a page: data, has_more, next_cursor) instead of `{"data": result}`. */
  answersAsIs?: boolean;
  bodyLimit?: number;
  /** The use case's write confirms an API key this process checked before (plugins/auth.ts). */
  confirmsCredential?: boolean;
  preValidation?: preValidationAsyncHookHandler;
}

/** Typed by the use case: its input function must answer the use case's input. */
export function useCaseRoute<U extends UseCase>(route: UseCaseRoute<U>): UseCaseRoute {
  return route as unknown as UseCaseRoute;
}

export function registerUseCaseRoutes(app: FastifyInstance, service: LedgerService, routes: readonly UseCaseRoute[]): void {
  for (const route of routes) {
    const { useCase } = route;
    app.route({
      method: route.method, url: route.url, schema: route.schema,
      ...(route.bodyLimit === undefined ? {} : { bodyLimit: route.bodyLimit }),
      ...(route.preValidation === undefined ? {} : { preValidation: route.preValidation }),
      config: {
        ...(useCase.permission === null ? {} : { permission: useCase.permission }),
        ...(route.confirmsCredential === true ? { confirmsCredential: true } : {}),
      },
      handler: useCase.writes
        ? async (request, reply) => answerWrite(reply, await service.execute(useCase, writeCommand(route, request)))
        : async (request) => {
          const answer = await service.execute(useCase as ReadUseCase<TSchema, unknown>, { actor: actorOf(request), input: inputOf(route, request) });
          return route.answersAsIs === true ? answer : { data: answer };
        },
    });
  }
}

/** The route's own input function, else the parts the route has a schema for, the path's parameters last (they name the thing). */
function inputOf(route: UseCaseRoute, request: FastifyRequest): unknown {
  if (route.input !== undefined) return route.input(request);
  const { querystring, body } = route.schema;
  const rest = route.method === 'GET' ? (querystring === undefined ? undefined : request.query) : (body === undefined ? undefined : request.body);
  return { ...(rest as object | undefined), ...(request.params as object | undefined) };
}

/** The command of a write: `?dry_run=true` asks for a dry run, and a POST's Idempotency-Key header is its key. */
function writeCommand(route: UseCaseRoute, request: FastifyRequest): Command<unknown> {
  const dryRun = route.dryRun === undefined ? (request.query as { dry_run?: boolean } | undefined)?.dry_run === true : route.dryRun(request);
  const header = request.method === 'POST' ? request.headers['idempotency-key'] : undefined;
  return { actor: actorOf(request), input: inputOf(route, request), dryRun, idempotencyKey: Array.isArray(header) ? header[0] : header };
}

function answerWrite(reply: FastifyReply, outcome: Outcome<unknown, unknown>): FastifyReply {
  switch (outcome.kind) {
    case 'dry-run':
      return reply.code(200).send({ data: outcome.data });
    case 'replayed':
      return reply.code(outcome.created ? 201 : 200).header('idempotent-replayed', 'true')
        .type('application/json; charset=utf-8').send(outcome.json);
    case 'done':
      return reply.code(outcome.created ? 201 : 200).send({ data: outcome.data });
  }
}
