// The kernel links the mapped `last` node behind nodes of its own through a helper that only
// stores its address, then walks the list and reads `last`'s value through it: the copy
// sent to the device is read, though no access names `last` directly.
#include <stdio.h>

typedef struct Node {
  int value;
  struct Node *next;
} Node;

static void link_after(Node *prev, Node *next) { prev->next = next; }

int main(void) {
  Node tail = {42, 0};
  Node *last = &tail;
  int out[4] = {0, 0, 0, 0};
#pragma omp target map(to: last[0:1]) map(from: out[0:4])
  {
    Node nodes[3];
    for (int i = 0; i < 3; i++) {
      nodes[i].value = i;
      nodes[i].next = 0;
    }
    link_after(&nodes[0], &nodes[1]);
    link_after(&nodes[1], &nodes[2]);
    link_after(&nodes[2], last);
    int k = 0;
    for (Node *n = &nodes[0]; n && k < 4; n = n->next)
      out[k++] = n->value;
  }
  printf("%d %d %d %d (want 0 1 2 42)\n", out[0], out[1], out[2], out[3]);
  return 0;
}
