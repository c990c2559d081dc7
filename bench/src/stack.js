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
var __spreadArray = (this && this.__spreadArray) || function (to, from, pack) {
    if (pack || arguments.length === 2) for (var i = 0, l = from.length, ar; i < l; i++) {
        if (ar || !(i in from)) {
            if (!ar) ar = Array.prototype.slice.call(from, 0, i);
            ar[i] = from[i];
        }
    }
    return to.concat(ar || Array.prototype.slice.call(from));
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ROOT = void 0;
exports.freshDatabase = freshDatabase;
exports.startApi = startApi;
exports.login = login;
exports.percentile = percentile;
exports.summarize = summarize;
exports.report = report;
var node_child_process_1 = require("node:child_process");
var node_url_1 = require("node:url");
var node_fs_1 = require("node:fs");
var pg_1 = require("pg");
var db_1 = require("@atende/db");
exports.ROOT = (0, node_url_1.fileURLToPath)(new URL('../../', import.meta.url));
/** A fresh database for one benchmark, migrated and seeded with the demo tenant. */
function freshDatabase(name) {
    return __awaiter(this, void 0, void 0, function () {
        var admin, url, db;
        return __generator(this, function (_a) {
            switch (_a.label) {
                case 0:
                    admin = new pg_1.default.Client({ connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres' });
                    return [4 /*yield*/, admin.connect()];
                case 1:
                    _a.sent();
                    return [4 /*yield*/, admin.query("DROP DATABASE IF EXISTS \"".concat(name, "\" WITH (FORCE)"))];
                case 2:
                    _a.sent();
                    return [4 /*yield*/, admin.end()];
                case 3:
                    _a.sent();
                    url = "postgresql://postgres@127.0.0.1:5432/".concat(name);
                    return [4 /*yield*/, (0, db_1.ensureDatabase)(url)];
                case 4:
                    _a.sent();
                    return [4 /*yield*/, (0, db_1.runMigrations)(url)];
                case 5:
                    _a.sent();
                    db = (0, db_1.createDb)(url);
                    return [4 /*yield*/, (0, db_1.seedDemo)(db)];
                case 6:
                    _a.sent();
                    return [4 /*yield*/, db.$disconnect()];
                case 7:
                    _a.sent();
                    return [2 /*return*/, url];
            }
        });
    });
}
/** Starts the built api (apps/api/dist/server.js; run `pnpm build` first) and waits for its health check. */
function startApi(env, port) {
    return __awaiter(this, void 0, void 0, function () {
        var child, url, deadline, _a;
        return __generator(this, function (_b) {
            switch (_b.label) {
                case 0:
                    child = (0, node_child_process_1.spawn)(process.execPath, ["".concat(exports.ROOT, "apps/api/dist/server.js")], {
                        cwd: exports.ROOT,
                        env: __assign(__assign(__assign({}, process.env), { LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', WEB_DIST: '/nonexistent' }), env),
                        stdio: ['ignore', 'inherit', 'inherit'],
                    });
                    url = "http://127.0.0.1:".concat(port);
                    deadline = Date.now() + 30000;
                    _b.label = 1;
                case 1:
                    _b.trys.push([1, 3, , 4]);
                    return [4 /*yield*/, fetch("".concat(url, "/api/health"))];
                case 2:
                    if ((_b.sent()).ok)
                        return [3 /*break*/, 7];
                    return [3 /*break*/, 4];
                case 3:
                    _a = _b.sent();
                    return [3 /*break*/, 4];
                case 4:
                    if (Date.now() > deadline)
                        throw new Error('api did not start');
                    return [4 /*yield*/, new Promise(function (r) { return setTimeout(r, 200); })];
                case 5:
                    _b.sent();
                    _b.label = 6;
                case 6: return [3 /*break*/, 1];
                case 7: return [2 /*return*/, {
                        url: url,
                        child: child,
                        stop: function () {
                            return new Promise(function (resolve) {
                                child.once('exit', function () { return resolve(); });
                                child.kill('SIGTERM');
                            });
                        },
                    }];
            }
        });
    });
}
function login(url_1, email_1) {
    return __awaiter(this, arguments, void 0, function (url, email, password) {
        var res;
        if (password === void 0) { password = 'atende123'; }
        return __generator(this, function (_a) {
            switch (_a.label) {
                case 0: return [4 /*yield*/, fetch("".concat(url, "/api/v1/login"), {
                        method: 'POST',
                        headers: { 'content-type': 'application/x-www-form-urlencoded' },
                        body: new URLSearchParams({ email: email, password: password }).toString(),
                    })];
                case 1:
                    res = _a.sent();
                    if (!res.ok)
                        throw new Error("login ".concat(email, ": ").concat(res.status));
                    return [4 /*yield*/, res.json()];
                case 2: return [2 /*return*/, (_a.sent()).token];
            }
        });
    });
}
function percentile(sorted, p) {
    if (sorted.length === 0)
        return NaN;
    var i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
    return sorted[i];
}
function summarize(samples) {
    var _a;
    var s = __spreadArray([], samples, true).sort(function (a, b) { return a - b; });
    var round = function (n) { return Math.round(n * 100) / 100; };
    return { count: s.length, p50_ms: round(percentile(s, 50)), p90_ms: round(percentile(s, 90)), p99_ms: round(percentile(s, 99)), max_ms: round((_a = s[s.length - 1]) !== null && _a !== void 0 ? _a : NaN) };
}
/** Prints the figures and writes them to bench/results/<name>.json. */
function report(name, result) {
    (0, node_fs_1.mkdirSync)("".concat(exports.ROOT, "bench/results"), { recursive: true });
    (0, node_fs_1.writeFileSync)("".concat(exports.ROOT, "bench/results/").concat(name, ".json"), "".concat(JSON.stringify(result, null, 2), "\n"));
    process.stdout.write("".concat(name, ": ").concat(JSON.stringify(result, null, 2), "\n"));
}
