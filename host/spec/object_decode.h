// Decoding the ConfigMaps and Secrets a job file declares beside its jobs (v1), checked as the API
// server checks them: names, keys, base64 data, the keys a Secret's type requires.
#pragma once

#include "host/common/expected.h"
#include "host/common/source_doc.h"
#include "jobhost/objects.h"

namespace jobhost {

/// A v1 ConfigMap; binaryData (base64) joins data. metadata.namespace defaults to "default".
/// Errors are "file:line:col: <field path>: <problem>".
Expected<ConfigMap> decodeConfigMap(const SourceDoc& source);

/// A v1 Secret: data decoded from base64, stringData written over it, type "Opaque" by default.
Expected<Secret> decodeSecret(const SourceDoc& source);

}  // namespace jobhost
