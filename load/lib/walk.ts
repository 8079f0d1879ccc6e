/**
 * The walk the load scripts drive (load/pagination.ts): PaginationWalk and its rules live in
 * contracts/pagination.ts, shared with the contract specs, since they are rules of the API document
 * rather than of the load scripts. Re-exported here so the scripts keep importing from their lib.
 */
export { PaginationWalk, WALK_RULES, type WalkFinding, type WalkOptions, type WalkRule, type WalkStep } from '../../contracts/pagination.ts';
