// A project header with a class whose accessors return references into its vectors (the
// shape of LULESH's Domain): omplens analyses these bodies for what they do.
#pragma once
#include <vector>

class FieldStore {
public:
  explicit FieldStore(int n) : m_area(n, 0.0), m_speed(n, 1.0) {}
  double &area(int i) { return m_area[i]; }
  double &speed(int i) { return m_speed[i]; }
  int size() const { return (int)m_area.size(); }
  std::vector<double> m_area;
  std::vector<double> m_speed;
};
