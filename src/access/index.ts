// Role and plan gating for flows and host apps.
export { Gate, type GateProps } from './Gate.tsx';
export { useAccess, useHasPrivilege, type AccessAnswer } from './useAccess.ts';
export { allows, needsPlan, type AccessFacts, type AccessRule } from './rules.ts';
