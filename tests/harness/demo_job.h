// The job the harness tests submit: "demo" in team-a, task ps (1) and worker (2), env and svc
// enabled, a restart-on-eviction policy; every pod runs until the test scripts otherwise.
#pragma once

namespace jobhost::testing {

inline constexpr const char* kDemoJob = R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: demo
  namespace: team-a
spec:
  minAvailable: 3
  plugins:
    env: []
    svc: []
  policies:
    - event: PodEvicted
      action: RestartJob
  tasks:
    - name: ps
      replicas: 1
      template:
        spec:
          restartPolicy: Never
          containers:
            - name: main
              image: busybox
    - name: worker
      replicas: 2
      template:
        spec:
          restartPolicy: Never
          containers:
            - name: main
              image: busybox
              ports:
                - name: tf
                  containerPort: 2222
)";

}  // namespace jobhost::testing
