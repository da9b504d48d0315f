export { importMJCF, type MJCFBody, type MJCFImport, type MJCFJoint, type MJCFJointType, type MJCFKeyframe, type MJCFOptions } from './import.js';
export type { IncludeReader } from './include.js';
export { MJCFError, type SourcePos } from './errors.js';
export { parseXML, type XmlElement } from './xml.js';
