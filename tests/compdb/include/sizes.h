#ifndef SIZES_H
#define SIZES_H
#ifndef N
#error "N comes from the compile command"
#endif
#endif
