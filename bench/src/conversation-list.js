"use strict";
var __assign = (this && this.__assign) || function () {
    __assign = Object.assign || function(t) {
        for (var s, i = 1, n = arguments.length; i < n; i++) {
            s = arguments[i];
            for (var p in s) if (Object.prototype.hasOwnProperty.call(s, p))
                t[p] = s[p];
        }
        return t;
    };
    return __assign.apply(this, arguments);
};
var __awaiter = (this && this.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
var __generator = (this && this.__generator) || function (thisArg, body) {
    var _ = { label: 0, sent: function() { if (t[0] & 1) throw t[1]; return t[1]; }, trys: [], ops: [] }, f, y, t, g = Object.create((typeof Iterator === "function" ? Iterator : Object).prototype);
    return g.next = verb(0), g["throw"] = verb(1), g["return"] = verb(2), typeof Symbol === "function" && (g[Symbol.iterator] = function() { return this; }), g;
    function verb(n) { return function (v) { return step([n, v]); }; }
    function step(op) {
        if (f) throw new TypeError("Generator is already executing.");
        while (g && (g = 0, op[0] && (_ = 0)), _) try {
            if (f = 1, y && (t = op[0] & 2 ? y["return"] : op[0] ? y["throw"] || ((t = y["return"]) && t.call(y), 0) : y.next) && !(t = t.call(y, op[1])).done) return t;
            if (y = 0, t) op = [op[0] & 2, t.value];
            switch (op[0]) {
                case 0: case 1: t = op; break;
                case 4: _.label++; return { value: op[1], done: false };
                case 5: _.label++; y = op[1]; op = [0]; continue;
                case 7: op = _.ops.pop(); _.trys.pop(); continue;
                default:
                    if (!(t = _.trys, t = t.length > 0 && t[t.length - 1]) && (op[0] === 6 || op[0] === 2)) { _ = 0; continue; }
                    if (op[0] === 3 && (!t || (op[1] > t[0] && op[1] < t[3]))) { _.label = op[1]; break; }
                    if (op[0] === 6 && _.label < t[1]) { _.label = t[1]; t = op; break; }
                    if (t && _.label < t[2]) { _.label = t[2]; _.ops.push(op); break; }
                    if (t[2]) _.ops.pop();
                    _.trys.pop(); continue;
            }
            op = body.call(thisArg, _);
        } catch (e) { op = [6, e]; y = 0; } finally { f = t = 0; }
        if (op[0] & 5) throw op[1]; return { value: op[0] ? op[1] : void 0, done: true };
    }
};
var _a, _b, _c;
Object.defineProperty(exports, "__esModule", { value: true });
// Conversation list latency: GET /api/v2/conversations p50/p99 with 100,000 conversations in the
// tenant (issue 3 "Proof"). Baseline in the same run: GET /api/v1/users/me (auth + one lookup), so the
// ratio shows what the list itself costs. Run `pnpm build` first.
var pg_1 = require("pg");
var stack_1 = require("./stack");
var CONVERSATIONS = Number((_a = process.env.BENCH_CONVERSATIONS) !== null && _a !== void 0 ? _a : 100000);
var REQUESTS = Number((_b = process.env.BENCH_REQUESTS) !== null && _b !== void 0 ? _b : 400);
var CONCURRENCY = Number((_c = process.env.BENCH_CONCURRENCY) !== null && _c !== void 0 ? _c : 8);
var url = await (0, stack_1.freshDatabase)('atende_bench_list');
var client = new pg_1.default.Client({ connectionString: url });
await client.connect();
var rows = (await client.query("\n  SELECT t.id AS tenant, w.id AS ws, u.id AS agent, s.id AS sector,\n         (SELECT id FROM \"Channel\" c WHERE c.\"tenantId\" = t.id LIMIT 1) AS channel\n  FROM \"Tenant\" t JOIN \"Workspace\" w ON w.\"tenantId\" = t.id JOIN \"User\" u ON u.\"tenantId\" = t.id AND u.email = 'agent@demo.atende.dev'\n  JOIN \"Sector\" s ON s.\"tenantId\" = t.id LIMIT 1")).rows;
var base = rows[0];
var channel = base.channel;
if (!channel) {
    var c = await client.query("INSERT INTO \"Channel\" (id, \"tenantId\", \"workspaceId\", name, type, \"updatedAt\") VALUES (gen_random_uuid(), $1, $2, 'Bench', 'custom', now()) RETURNING id", [base.tenant, base.ws]);
    channel = c.rows[0].id;
}
var started = Date.now();
await client.query("INSERT INTO \"Contact\" (id, \"tenantId\", name, \"phoneNumber\", \"updatedAt\")\n   SELECT gen_random_uuid(), $1, 'Bench contact ' || g, '+55119' || lpad(g::text, 8, '0'), now() FROM generate_series(1, $2) g", [base.tenant, Math.ceil(CONVERSATIONS / 4)]);
await client.query("WITH c AS (SELECT id, row_number() OVER () AS rn FROM \"Contact\" WHERE \"tenantId\" = $1),\n        n AS (SELECT COALESCE(MAX(\"ticketNumber\"), 0) AS m FROM \"Conversation\" WHERE \"tenantId\" = $1)\n   INSERT INTO \"Conversation\" (id, \"tenantId\", \"workspaceId\", \"contactId\", \"channelId\", \"sectorId\", \"userId\", state, \"ticketNumber\", \"timeJoin\", \"createdAt\", \"updatedAt\", \"closedAt\")\n   SELECT gen_random_uuid(), $1, $2, c.id, $3, $4,\n          CASE WHEN g % 3 = 0 THEN $5 ELSE NULL END,\n          (CASE WHEN g % 10 = 0 THEN 'waiting' WHEN g % 10 = 1 THEN 'answered' ELSE 'closed' END)::\"ConversationState\",\n          n.m + g, now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval, now(),\n          CASE WHEN g % 10 > 1 THEN now() - (g || ' minutes')::interval + interval '10 minutes' END\n   FROM generate_series(1, $6) g CROSS JOIN n JOIN c ON c.rn = 1 + (g % (SELECT COUNT(*) FROM c))", [base.tenant, base.ws, channel, base.sector, base.agent, CONVERSATIONS]);
await client.query('ANALYZE');
var seeded = (await client.query('SELECT COUNT(*)::text AS n FROM "Conversation"')).rows[0].n;
await client.end();
var seedSeconds = (Date.now() - started) / 1000;
var api = await (0, stack_1.startApi)({ DATABASE_URL: url, REDIS_PREFIX: 'atende-bench:' }, 3210);
try {
    var supervisor = await (0, stack_1.login)(api.url, 'supervisor@demo.atende.dev');
    var agent = await (0, stack_1.login)(api.url, 'agent@demo.atende.dev');
    function measure(path, token) {
        return __awaiter(this, void 0, void 0, function () {
            var samples, next, i;
            var _this = this;
            return __generator(this, function (_a) {
                switch (_a.label) {
                    case 0:
                        samples = [];
                        next = 0;
                        i = 0;
                        _a.label = 1;
                    case 1:
                        if (!(i < 20)) return [3 /*break*/, 4];
                        return [4 /*yield*/, fetch("".concat(api.url).concat(path), { headers: { authorization: "Bearer ".concat(token) } })];
                    case 2:
                        _a.sent();
                        _a.label = 3;
                    case 3:
                        i++;
                        return [3 /*break*/, 1];
                    case 4: return [4 /*yield*/, Promise.all(Array.from({ length: CONCURRENCY }, function () { return __awaiter(_this, void 0, void 0, function () {
                            var t0, res;
                            return __generator(this, function (_a) {
                                switch (_a.label) {
                                    case 0:
                                        if (!(next < REQUESTS)) return [3 /*break*/, 3];
                                        next++;
                                        t0 = performance.now();
                                        return [4 /*yield*/, fetch("".concat(api.url).concat(path), { headers: { authorization: "Bearer ".concat(token) } })];
                                    case 1:
                                        res = _a.sent();
                                        return [4 /*yield*/, res.arrayBuffer()];
                                    case 2:
                                        _a.sent();
                                        if (!res.ok)
                                            throw new Error("".concat(path, ": ").concat(res.status));
                                        samples.push(performance.now() - t0);
                                        return [3 /*break*/, 0];
                                    case 3: return [2 /*return*/];
                                }
                            });
                        }); }))];
                    case 5:
                        _a.sent();
                        next = 0;
                        return [2 /*return*/, (0, stack_1.summarize)(samples)];
                }
            });
        });
    }
    var baseline = await measure('/api/v1/users/me', supervisor);
    var supervisorFirstPage = await measure('/api/v2/conversations?_limit=10&_offset=0', supervisor);
    var supervisorWaiting = await measure('/api/v2/conversations?_limit=40&state=waiting', supervisor);
    var supervisorDeepPage = await measure('/api/v2/conversations?_limit=40&_offset=50000', supervisor);
    var agentOwn = await measure('/api/v2/conversations?_limit=10', agent);
    (0, stack_1.report)('conversation-list', {
        conversations: Number(seeded),
        seed_seconds: seedSeconds,
        requests_per_case: REQUESTS,
        concurrency: CONCURRENCY,
        baseline_users_me: baseline,
        supervisor_first_page: __assign(__assign({}, supervisorFirstPage), { p50_ratio_to_baseline: +(supervisorFirstPage.p50_ms / baseline.p50_ms).toFixed(2) }),
        supervisor_waiting_filter: __assign(__assign({}, supervisorWaiting), { p50_ratio_to_baseline: +(supervisorWaiting.p50_ms / baseline.p50_ms).toFixed(2) }),
        supervisor_offset_50000: __assign(__assign({}, supervisorDeepPage), { p50_ratio_to_baseline: +(supervisorDeepPage.p50_ms / baseline.p50_ms).toFixed(2) }),
        agent_own_conversations: __assign(__assign({}, agentOwn), { p50_ratio_to_baseline: +(agentOwn.p50_ms / baseline.p50_ms).toFixed(2) }),
    });
}
finally {
    await api.stop();
}
